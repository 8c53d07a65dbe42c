/* The Python binding of the native core: argument checks, the solver context (a capsule),
 * solve, card_values (solve_split is _native_split.c's), the kernel copies for the
 * cross-check, and the module. */
#include "_native.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

PyObject *jass_invalid_input; /* jass.errors.InvalidInputError, set by _set_error */

/* An int argument in [lo, hi], or InvalidInputError naming it. */
int jass_arg_ll(PyObject *o, long long lo, long long hi, const char *name, long long *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(jass_invalid_input, "%s must be an int", name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        PyErr_Format(jass_invalid_input, "%s is out of range %lld-%lld", name, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int arg_seconds(PyObject *o, double *out) {
    double v = PyFloat_AsDouble(o);
    if ((v == -1.0 && PyErr_Occurred()) || PyBool_Check(o)) {
        PyErr_Clear();
        PyErr_SetString(jass_invalid_input, "time_limit must be a number of seconds");
        return -1;
    }
    *out = v;
    return 0;
}

static void ctx_free(PyObject *capsule) {
    Ctx *c = (Ctx *)PyCapsule_GetPointer(capsule, "jass.native.ctx");
    if (c) {
#ifdef JASS_PAYOFF_STATS /* the table's cuts by cards a hand, for docs/performance.rst */
        for (int i = 0; i < 2; i++) {
            fprintf(stderr, i ? "payoff-similar cuts" : "exact cuts");
            for (int n = 0; n < 10; n++)
                fprintf(stderr, " %llu", (unsigned long long)c->payoff_cuts[i][n]);
            fprintf(stderr, "\n");
        }
#endif
        free(c->tt);
        free(c);
    }
}

static Ctx *get_ctx(PyObject *capsule) {
    if (!PyCapsule_IsValid(capsule, "jass.native.ctx")) {
        PyErr_SetString(jass_invalid_input, "context must be a solver context from new_context");
        return NULL;
    }
    return (Ctx *)PyCapsule_GetPointer(capsule, "jass.native.ctx");
}

/* new_context(rules, table_limit, features) */
static PyObject *new_context(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *o_limit, *o_features;
    long long limit, features;
    if (!PyArg_ParseTuple(args, "OOO", &rules, &o_limit, &o_features)) return NULL;
    if (jass_arg_ll(o_limit, 1, (long long)1 << 40, "table_limit", &limit) < 0 ||
        jass_arg_ll(o_features, 0, F_ALL, "features", &features) < 0)
        return NULL;
    Ctx *c = (Ctx *)calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    if (jass_read_rules(rules, &c->r) < 0) {
        free(c);
        return NULL;
    }
    c->sign = c->r.swap ? -1 : 1;
    memset(c->killer, -1, sizeof c->killer);
    c->features = (int)features;
    jass_build_canon(c);
    jass_build_sure(c);
    uint64_t cap = 4;
    while (cap * 2 <= (uint64_t)limit) cap *= 2;
    c->tt_limit = cap;
    c->bonus[0] = c->bonus[1] = -1;
    if (jass_tt_alloc(c, cap < 1024 ? cap : 1024) < 0) {
        free(c);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(c, "jass.native.ctx", ctx_free);
    if (!capsule) {
        free(c->tt);
        free(c);
    }
    return capsule;
}

/* Read a position: hands, leader, trick, tricks taken, declaring team, limits. */
int jass_read_root(Ctx *c, PyObject *hands, long long leader, PyObject *trick, long long t0,
                     long long t1, long long declaring, Root *root) {
    long long h[4], tr[4];
    if (jass_ints_of(hands, 4, 0, (long long)ALL36, h, "hands") < 0) return -1;
    if (leader < 0 || leader > 3) {
        PyErr_Format(jass_invalid_input, "leader must be a seat 0-3, got %lld", leader);
        return -1;
    }
    if (!PySequence_Check(trick)) {
        PyErr_SetString(jass_invalid_input, "trick must be a sequence of cards");
        return -1;
    }
    Py_ssize_t n = PySequence_Size(trick);
    if (n < 0 || n > 3) {
        PyErr_Clear();
        PyErr_SetString(jass_invalid_input, "trick must hold 0-3 cards");
        return -1;
    }
    if (jass_ints_of(trick, n, 0, 35, tr, "trick") < 0) return -1;
    if (declaring < 0 || declaring > 1) {
        PyErr_Format(jass_invalid_input, "declaring_team must be 0 or 1, got %lld", declaring);
        return -1;
    }
    uint64_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (seen & (uint64_t)h[i]) {
            PyErr_SetString(jass_invalid_input, "hands: a card is in two hands");
            return -1;
        }
        seen |= (uint64_t)h[i];
        root->hands[i] = (uint64_t)h[i];
    }
    for (int i = 0; i < n; i++) {
        if (seen & BIT(tr[i])) {
            PyErr_SetString(jass_invalid_input, "trick: a card is in a hand or twice in the trick");
            return -1;
        }
        seen |= BIT(tr[i]);
        root->trick[i] = (int)tr[i];
    }
    root->leader = (int)leader;
    root->n = (int)n;
    int seat = (int)((leader + n) & 3);
    int count = popcount64(root->hands[seat]);
    for (int i = 0; i < 4; i++) {
        int expect = count - (i < n ? 1 : 0);
        if (popcount64(root->hands[(leader + i) & 3]) != expect) {
            PyErr_SetString(jass_invalid_input,
                            "hands: the hand sizes and the trick do not make a position");
            return -1;
        }
    }
    if (count < 1) {
        PyErr_SetString(jass_invalid_input, "hands: no card is left to play");
        return -1;
    }
    if (t0 < 0 || t1 < 0 || t0 + t1 + count != 9) {
        PyErr_Format(jass_invalid_input, "tricks: (%lld, %lld) taken do not fit %d cards left",
                     t0, t1, count);
        return -1;
    }
    root->side = seat & 1;
    root->match = (t1 == 0 ? 1 : 0) | (t0 == 0 ? 2 : 0);
    root->left = held_points(&c->r, seen) + c->r.last_bonus;
    int b[2];
    b[declaring] = c->r.match_bonus;
    b[declaring ^ 1] = c->r.counter_bonus;
    if ((b[0] != c->bonus[0] || b[1] != c->bonus[1]) && c->tt_used) {
        /* Other bonuses: the table's values no longer hold. */
        memset(c->tt, 0, (size_t)(c->tt_mask + 1) * sizeof(Entry));
        c->tt_used = 0;
    }
    c->bonus[0] = b[0];
    c->bonus[1] = b[1];
    c->gen++; /* a new call: the table's entries so far become the first to replace */
    root->own = (root->match >> root->side & 1) ? b[root->side] : 0;
    root->theirs = (root->match >> (root->side ^ 1) & 1) ? b[root->side ^ 1] : 0;
    return 0;
}

static int read_limits(Ctx *c, long long node_limit, double time_limit) {
    if (node_limit < 0) {
        PyErr_Format(jass_invalid_input, "node_limit must be 0 (none) or positive, got %lld",
                     node_limit);
        return -1;
    }
    if (!(time_limit >= 0) || isinf(time_limit) || time_limit > 1e9) {
        PyErr_SetString(jass_invalid_input,
                        "time_limit must be 0 (none) or a positive number of seconds");
        return -1;
    }
    c->nodes = 0;
    c->stopped = 0;
    JASS_SET_FLAG(c->cancel, 0);
    c->node_limit = node_limit ? (uint64_t)node_limit : UINT64_MAX;
    c->deadline = time_limit > 0 ? jass_now_seconds() + time_limit : 0;
    c->poll = c->deadline > 0;
    c->split = NULL;
    c->moot = -1;
    return 0;
}

static int acquire(Ctx *c) {
    if (c->busy) {
        PyErr_SetString(jass_invalid_input,
                        "context: this solver is already solving (one at a time)");
        return -1;
    }
    c->busy = 1;
    return 0;
}

/* The arguments solve and card_values share: (ctx, hands, leader, trick, t0, t1, declaring,
 * node_limit, time_limit), checked; on success the context is held (busy) and root read. */
Ctx *jass_read_call(PyObject *args, Root *root) {
    PyObject *cap, *hands, *trick, *o_leader, *o_t0, *o_t1, *o_decl, *o_nodes, *o_time;
    long long leader, t0, t1, declaring, node_limit;
    double time_limit;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &cap, &hands, &o_leader, &trick, &o_t0, &o_t1,
                          &o_decl, &o_nodes, &o_time))
        return NULL;
    if (jass_arg_ll(o_leader, 0, 3, "leader", &leader) < 0 ||
        jass_arg_ll(o_t0, 0, 9, "tricks[0]", &t0) < 0 ||
        jass_arg_ll(o_t1, 0, 9, "tricks[1]", &t1) < 0 ||
        jass_arg_ll(o_decl, 0, 1, "declaring_team", &declaring) < 0 ||
        jass_arg_ll(o_nodes, 0, LLONG_MAX, "node_limit", &node_limit) < 0 ||
        arg_seconds(o_time, &time_limit) < 0)
        return NULL;
    Ctx *c = get_ctx(cap);
    if (!c || acquire(c) < 0) return NULL;
    if (jass_read_root(c, hands, leader, trick, t0, t1, declaring, root) < 0 ||
        read_limits(c, node_limit, time_limit) < 0) {
        c->busy = 0;
        return NULL;
    }
    return c;
}

/* What the side makes from its difference (jass.solver.side_points): the cards' points it is
 * credited, or all of it with its match, nothing against the opponents' match. */
int jass_side_points(const Root *root, int difference) {
    if (root->own && difference == root->left + root->own) return difference;
    if (root->theirs && difference == -(root->left + root->theirs)) return 0;
    int twice = root->left + difference;
    return twice >= 0 ? twice / 2 : -((1 - twice) / 2); /* Python's floor division */
}

/* solve(ctx, hands, leader, trick, t0, t1, declaring, node_limit, time_limit)
 *   -> (lower, upper, best, exact, nodes, table_used, points) */
static PyObject *solve(PyObject *self, PyObject *args) {
    (void)self;
    Root root;
    Ctx *c = jass_read_call(args, &root);
    if (!c) return NULL;
    int lo = 0, hi = 0, exact, best = -1, last_good = -1;
    int list[9];
    Py_BEGIN_ALLOW_THREADS
    int n = jass_root_moves(c, &root, list);
    int good_value = INT_MIN;
    int guess = c->last_value, guessed = c->has_last;
    /* The greedy line guesses well enough from seven tricks left down; from more, the plain
     * bisection searches fewer positions (a fifth on full hands). */
    int held = popcount64(root.hands[(root.leader + root.n) & 3]);
    if (!guessed && (c->features & F_GUESS) && held <= 7) {
        guess = jass_guess(c, &root);
        guessed = 1;
    }
    exact = jass_bisect(c, &root, -1, guess, guessed, &lo, &hi, &last_good, &good_value);
    if (exact) {
        c->last_value = lo;
        c->has_last = 1;
        /* A probe's card that made at least the value is a best card: no search for one. */
        if (last_good >= 0 && good_value >= lo) best = last_good;
    }
    if (exact && best < 0) {
        for (int i = 0; i < n && best < 0; i++) {
            int v = jass_probe(c, &root, lo, list[i]);
            if (c->stopped) break;
            if (v >= lo) best = list[i];
        }
        if (best < 0) exact = 0; /* stopped while finding the card */
    }
    if (best < 0) best = last_good >= 0 ? last_good : list[0];
    Py_END_ALLOW_THREADS
    c->busy = 0;
    return Py_BuildValue("iiiiKKi", lo, hi, best, exact, (unsigned long long)c->nodes,
                         (unsigned long long)c->tt_used, jass_side_points(&root, lo));
}

/* card_values(ctx, hands, leader, trick, t0, t1, declaring, node_limit, time_limit)
 *   -> (((card, lower, upper, points), ...) for every legal card, exact, nodes, table_used) */
static PyObject *card_values(PyObject *self, PyObject *args) {
    (void)self;
    Root root;
    Ctx *c = jass_read_call(args, &root);
    if (!c) return NULL;
    int list[9], n, lo[9], hi[9], exact = 1;
    Py_BEGIN_ALLOW_THREADS
    n = jass_root_moves(c, &root, list);
    int most = INT_MIN;
    for (int i = 0; i < n; i++) {
        int l, h;
        if (!c->stopped) {
            /* Guess: the card before it here (the previous world's value of the same card is
             * a worse guess: 8% more positions over 32 worlds); the first card takes the last
             * call's best value. */
            int guessed = i > 0 || c->has_last;
            int guess = i ? lo[i - 1] : c->last_value;
            jass_bisect(c, &root, list[i], guess, guessed, &l, &h, NULL, NULL);
            if (!c->stopped && l > most) most = l;
        } else {
            l = -(root.left + root.theirs);
            h = root.left + root.own;
        }
        lo[i] = l;
        hi[i] = h;
    }
    exact = !c->stopped;
    if (exact && n) {
        c->last_value = most;
        c->has_last = 1;
    }
    Py_END_ALLOW_THREADS
    c->busy = 0;
    PyObject *out = jass_values_list(c, &root, list, n, lo, hi);
    if (!out) return NULL;
    return Py_BuildValue("NiKK", out, exact, (unsigned long long)c->nodes,
                         (unsigned long long)c->tt_used);
}

/* [(card, lower, upper, points), ...] for every legal card of the root, from the bounds of
 * its root cards (list: one per class). */
PyObject *jass_values_list(Ctx *c, const Root *root, const int *list, int n, const int *lo,
                           const int *hi) {
    int rep[36];
    uint64_t live = root->hands[0] | root->hands[1] | root->hands[2] | root->hands[3];
    for (int i = 0; i < root->n; i++) live |= BIT(root->trick[i]);
    int seat = (root->leader + root->n) & 3;
    uint64_t all_legal = legal(&c->r, root->hands[seat], root->n, root->trick);
    jass_rep_map(&c->r, root->hands[seat], live, (c->features & F_MERGE) != 0, rep);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (uint64_t m = all_legal; m; m &= m - 1) {
        int card = lowest(m), k = -1;
        for (int i = 0; i < n; i++)
            if (list[i] == rep[card]) k = i;
        if (k < 0) continue; /* cannot happen: every legal card's rep is a legal rep */
        PyObject *item = Py_BuildValue("iiii", card, lo[k], hi[k], jass_side_points(root, lo[k]));
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

/* legal_mask(rules, hand, trick) -> int: the kernel copy, exposed for the cross-check. */
static PyObject *py_legal(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *trick, *o_hand;
    long long hand;
    if (!PyArg_ParseTuple(args, "OOO", &rules, &o_hand, &trick)) return NULL;
    Rules r;
    long long tr[3];
    if (jass_read_rules(rules, &r) < 0) return NULL;
    if (jass_arg_ll(o_hand, 0, (long long)ALL36, "hand", &hand) < 0) return NULL;
    Py_ssize_t n = PySequence_Check(trick) ? PySequence_Size(trick) : -1;
    if (n < 0 || n > 3) {
        PyErr_Clear();
        PyErr_SetString(jass_invalid_input, "trick must hold 0-3 cards");
        return NULL;
    }
    if (jass_ints_of(trick, n, 0, 35, tr, "trick") < 0) return NULL;
    int t[3];
    for (int i = 0; i < n; i++) t[i] = (int)tr[i];
    return PyLong_FromUnsignedLongLong(legal(&r, (uint64_t)hand, (int)n, t));
}

/* trick_winner(rules, trick) -> index of the card holding it. */
static PyObject *py_winner(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *trick;
    if (!PyArg_ParseTuple(args, "OO", &rules, &trick)) return NULL;
    Rules r;
    long long tr[4];
    if (jass_read_rules(rules, &r) < 0) return NULL;
    Py_ssize_t n = PySequence_Check(trick) ? PySequence_Size(trick) : -1;
    if (n < 1 || n > 4) {
        PyErr_Clear();
        PyErr_SetString(jass_invalid_input, "trick must hold 1-4 cards");
        return NULL;
    }
    if (jass_ints_of(trick, n, 0, 35, tr, "trick") < 0) return NULL;
    int t[4];
    for (int i = 0; i < n; i++) t[i] = (int)tr[i];
    return PyLong_FromLong(winner_of(&r, (int)n, t));
}

/* cancel(ctx): the running solve of ctx stops at its next position (an interrupt). */
static PyObject *py_cancel(PyObject *self, PyObject *cap) {
    (void)self;
    Ctx *c = get_ctx(cap);
    if (!c) return NULL;
    JASS_SET_FLAG(c->cancel, 1);
    Py_RETURN_NONE;
}

static PyObject *set_error(PyObject *self, PyObject *cls) {
    (void)self;
    Py_XDECREF(jass_invalid_input);
    Py_INCREF(cls);
    jass_invalid_input = cls;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"_set_error", set_error, METH_O, "Set the exception class raised on bad input."},
    {"new_context", new_context, METH_VARARGS, "A solver context: (rules, table_limit, features)."},
    {"solve", solve, METH_VARARGS, "Solve a position."},
    {"cancel", py_cancel, METH_O, "Stop the context's running solve."},
    {"card_values", card_values, METH_VARARGS, "The value of every legal card."},
    {"solve_split", jass_py_solve_split, METH_VARARGS, "solve or card_values on threads."},
    {"legal_mask", py_legal, METH_VARARGS, "The legal cards (kernel copy)."},
    {"trick_winner", py_winner, METH_VARARGS, "The trick's holder (kernel copy)."},
    {"play_out", jass_py_play_out, METH_VARARGS, "A random play-out from a trick boundary."},
    {"random_hand", jass_py_random_hand, METH_VARARGS, "fast.random_hand from its 288 bytes."},
    {"random_hands", jass_py_random_hands, METH_VARARGS, "Deal and play n random hands."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The native search core of jass.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    jass_invalid_input = PyExc_ValueError;
    Py_INCREF(jass_invalid_input);
    return PyModule_Create(&module);
}
