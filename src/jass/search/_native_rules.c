/* The rule data: a RuleData tuple (jass.core.ruledata) read into Rules, checked field by
 * field. The card-play kernels that use it are in _native.h. */
#include "_native.h"

static int long_at(PyObject *seq, Py_ssize_t i, long long lo, long long hi, long long *out,
                   const char *name) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    long long v = PyLong_AsLongLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(jass_invalid_input, "%s[%zd] is not an int", name, i);
        return -1;
    }
    if (v < lo || v > hi) {
        PyErr_Format(jass_invalid_input, "%s[%zd] = %lld is out of range %lld-%lld", name, i, v,
                     lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int jass_ints_of(PyObject *seq, Py_ssize_t n, long long lo, long long hi, long long *out,
                   const char *name) {
    if (!PySequence_Check(seq) || PySequence_Size(seq) != n) {
        PyErr_Clear();
        PyErr_Format(jass_invalid_input, "%s must be a sequence of %zd ints", name, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (long_at(seq, i, lo, hi, &out[i], name) < 0) return -1;
    return 0;
}


/* Refuse a rules argument that no rule_data() call made: say what is wrong with it. */
static int bad_rules(const char *what) {
    PyErr_Clear();
    PyErr_Format(jass_invalid_input,
                 "rules is not the RuleData of a contract (forged, or from another jass "
                 "version): %s", what);
    return -1;
}

/* Read a RuleData tuple (jass.core.ruledata) into r. */
int jass_read_rules(PyObject *data, Rules *r) {
    long long v[36];
    if (!PyTuple_Check(data) || PyTuple_Size(data) != 16)
        return bad_rules("it must be a tuple of 16 fields");
    memset(r, 0, sizeof *r);
    long long scalars[16];
    static const int scalar_fields[] = {2, 4, 5, 9, 10, 11, 12, 14};
    static const char *scalar_names[] = {
        "its trump_mask", "its buur_mask", "its buur_exception", "its strict_undertrump",
        "its credit_swap", "its last_trick_bonus", "its match_bonus", "its counter_match_bonus",
    };
    for (int i = 0; i < 8; i++) {
        int f = scalar_fields[i];
        PyObject *item = PyTuple_GetItem(data, f);
        scalars[f] = item ? PyLong_AsLongLong(item) : -1;
        if (PyErr_Occurred() || scalars[f] < 0 || scalars[f] > (long long)ALL36) {
            PyErr_Clear();
            PyErr_Format(jass_invalid_input,
                         "rules is not the RuleData of a contract (forged, or from another "
                         "jass version): %s is not a non-negative int", scalar_names[i]);
            return -1;
        }
    }
    r->trump_mask = (uint64_t)scalars[2];
    r->buur_mask = (uint64_t)scalars[4];
    r->buur_exception = (int)scalars[5];
    r->strict = (int)scalars[9];
    r->swap = (int)scalars[10];
    r->last_bonus = (int)scalars[11];
    r->match_bonus = (int)scalars[12];
    r->counter_bonus = (int)scalars[14];
    if (r->buur_exception > 1 || r->strict > 1 || r->swap > 1)
        return bad_rules("a flag is not 0 or 1");
    if (r->last_bonus > 1000 || r->match_bonus > 10000 || r->counter_bonus > 10000)
        return bad_rules("a bonus is above 1000 (last trick) or 10000 (match)");
    if ((r->buur_mask & ~r->trump_mask) || popcount64(r->buur_mask) > 1)
        return bad_rules("its Buur is not one trump");
    int tsuit = -1;
    for (int s = 0; s < 4; s++)
        if (r->trump_mask == ((uint64_t)0x1FF << (9 * s))) tsuit = s;
    if (r->trump_mask && tsuit < 0) return bad_rules("its trumps are not one whole suit");
    if (jass_ints_of(PyTuple_GetItem(data, 6), 36, 0, (long long)ALL36, v, "above") < 0)
        return bad_rules("its above is not 36 card masks");
    for (int c = 0; c < 36; c++) r->above[c] = (uint64_t)v[c];
    if (jass_ints_of(PyTuple_GetItem(data, 7), 36, 0, 1000, v, "points") < 0)
        return bad_rules("its points are not 36 ints of 0-1000");
    for (int c = 0; c < 36; c++) r->points[c] = (int)v[c];
    PyObject *keys = PyTuple_GetItem(data, 8);
    if (!PySequence_Check(keys) || PySequence_Size(keys) != 4)
        return bad_rules("its win_keys do not hold one row per led suit (4)");
    for (int s = 0; s < 4; s++) {
        PyObject *row = PySequence_GetItem(keys, s);
        if (!row) return bad_rules("its win_keys do not hold one row per led suit (4)");
        int bad = jass_ints_of(row, 36, -1, 100, v, "win_keys");
        Py_DECREF(row);
        if (bad < 0) return bad_rules("a win_keys row is not 36 ints of -1 to 100");
        for (int c = 0; c < 36; c++) {
            r->keys[s][c] = (int)v[c];
            /* The led suit must take precedence over the other plain suits. */
            int plain_other = c / 9 != s && c / 9 != tsuit;
            if ((plain_other && v[c] >= 0) || (!plain_other && v[c] < 0))
                return bad_rules("its win_keys let a card of another plain suit win a trick, "
                                 "or a card of the led suit or a trump not");
        }
    }
    for (int c = 0; c < 36; c++) r->power[c] = r->keys[c / 9][c];
    for (int s = 0; s < 4; s++) {
        /* Order each suit strongest first (keys within a suit are distinct). */
        int *o = r->order[s];
        for (int i = 0; i < 9; i++) o[i] = 9 * s + i;
        for (int i = 1; i < 9; i++)
            for (int j = i; j > 0 && r->power[o[j]] > r->power[o[j - 1]]; j--) {
                int t = o[j]; o[j] = o[j - 1]; o[j - 1] = t;
            }
        for (int i = 1; i < 9; i++)
            if (r->power[o[i]] == r->power[o[i - 1]])
                return bad_rules("its win_keys give two cards of a suit the same strength");
        for (int p = 1; p < 512; p++) {
            int low = lowest((uint64_t)p);
            r->suit_points[s][p] = r->suit_points[s][p & (p - 1)] + r->points[9 * s + low];
        }
    }
    return 0;
}
