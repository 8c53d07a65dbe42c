/* One solve split over threads, each thread searching with a context (and table) of its own,
 * so that no table is shared. What the threads share is small and atomic: the probe's
 * target, which units of work each has taken, the probe's outcome, the positions spent and a
 * stop flag.
 *
 * For solve, the first thread drives the bisection of jass_bisect (its plain form, as for a
 * full hand) and splits every probe into units: a root card (one per class) with one reply
 * of the next hand. A root card reaches the target when none of its replies refutes it (an
 * ALL node: its replies can be searched at once); the young brothers wait: a card's other
 * replies are taken only once its first did not refute it, and a later card's first reply
 * meanwhile. The first card to reach the target decides the probe and the others stop; a
 * refuted card's other replies stop (moot, jass_poll); else the probe fails with the largest
 * of the refutations' fail-soft bounds. A unit goes back to the thread that searched it in
 * the last probe, whose table knows it. For card_values every card's exact value is wanted:
 * the threads take the cards one at a time. The result does not depend on the threads (a
 * best card may: any card that achieves the value). */
#include "_native.h"

#include <limits.h>
#include <stdlib.h>

#ifdef _WIN32
#include <windows.h>
#include <process.h>
#else
#include <pthread.h>
#include <sched.h>
#include <time.h>
#endif

/* The few atomic operations the threads need, on 32- and 64-bit ints. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
typedef volatile long atomic32;
typedef volatile __int64 atomic64;
#define LOAD(p) _InterlockedOr((p), 0)
#define STORE(p, v) _InterlockedExchange((p), (v))
#define ADD(p, v) _InterlockedExchangeAdd((p), (v))
#define ADD64(p, v) _InterlockedExchangeAdd64((p), (v))
#define CAS(p, old, v) (_InterlockedCompareExchange((p), (v), (old)) == (old))
#else
typedef long atomic32;
typedef long long atomic64;
#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)
#define ADD64(p, v) __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)
#define CAS(p, old, v) \
    __atomic_compare_exchange_n((p), &(old), (v), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
#endif

#define MAX_THREADS 64
#define CHUNK 4096 /* positions a thread takes from the node limit at a time */
#define OFFSET (1 << 20) /* a packed bound: (value + OFFSET) * 16 + the card's index */

typedef struct Split {
    Ctx *ctx[MAX_THREADS];
    Root roots[MAX_THREADS]; /* the same position, read by each context */
    int threads, running, n, values, list[9], lo[9], hi[9];
    int target, root_lo, root_hi, best; /* solve: the probe's target; the result */
    long long node_limit; /* 0: none */
    atomic32 next, stop;
    atomic32 round, quit, finished, cut, fail; /* solve: the probe under way */
    /* solve's units of work: a root card and one reply of the next hand (unit_reply -1: the
     * root card alone, when its reply would end the trick), grouped by card, eldest first */
    int units, unit_card[81], unit_reply[81], first_unit[10];
    Root child[9]; /* the position after each root card (the reply's root) */
    atomic32 taken[81], refuted[9], done[9], low[9];
    atomic32 owner[81]; /* the thread that last searched each unit (-1: none yet) */
    atomic32 arrived, meet; /* the tests' check that the threads run at once (meet_all) */
    atomic64 spent;
    Ctx *main; /* the context whose cancel() stops every thread */
} Split;

static long pack(int value, int k) { return (long)(value + OFFSET) * 16 + k; }
static int value_of(long packed) { return (int)(packed / 16) - OFFSET; }

/* *p = max(*p, want) */
static void raise_to(atomic32 *p, long want) {
    for (;;) {
        long now = LOAD(p);
        if (now >= want || CAS(p, now, want)) return;
    }
}

/* Wait a moment: yield at first, then sleep (a waiting thread leaves its core to others). */
static void pause_for(int *spins) {
    if (++*spins < 1000) {
#ifdef _WIN32
        SwitchToThread();
#else
        sched_yield();
#endif
        return;
    }
#ifdef _WIN32
    Sleep(0);
#else
    struct timespec nap = {0, 20000};
    nanosleep(&nap, NULL);
#endif
}

/* counted()'s poll every 1024 positions: the deadline, a stop or cancel on any thread, a
 * moot probe (another card decided it: stopped 2, which the probe's caller clears). */
int jass_poll(Ctx *c) {
    if (c->deadline > 0 && jass_now_seconds() > c->deadline) {
        c->stopped = 1;
        return 1;
    }
    Split *sp = c->split;
    if (!sp) return 0;
    if (LOAD(&sp->stop) || JASS_GET_FLAG(sp->main->cancel)) {
        c->stopped = 1;
        return 1;
    }
    if (!sp->values && (LOAD(&sp->cut) || (c->moot >= 0 && LOAD(&sp->refuted[c->moot])))) {
        c->stopped = 2;
        return 1;
    }
    return 0;
}

/* The context spent its positions: take CHUNK more from the node limit, if any is left. */
int jass_more_nodes(Ctx *c) {
    Split *sp = c->split;
    long long got = ADD64(&sp->spent, CHUNK);
    if (got >= sp->node_limit) return 0;
    long long take = sp->node_limit - got < CHUNK ? sp->node_limit - got : CHUNK;
    c->node_limit += (uint64_t)take;
    return 1;
}

/* *p = min(*p, want) */
static void lower_to(atomic32 *p, long want) {
    for (;;) {
        long now = LOAD(p);
        if (now <= want || CAS(p, now, want)) return;
    }
}

/* The next unit thread t takes (-1: none now; *wait set if one may come free): the first
 * card's eldest unit (its first reply) not taken yet; a card's other units only once its
 * eldest is done and did not refute it (young brothers wait: a refuting first reply, the
 * common case, saves them). A unit goes back to the thread that searched it in the last
 * probe, whose table knows it: first the thread's own units and new ones, then any. */
static int next_unit(Split *sp, int t, int *wait) {
    for (int sweep = 0; sweep < 2; sweep++) {
        *wait = 0;
        for (int k = 0; k < sp->n; k++) {
            if (LOAD(&sp->refuted[k])) continue;
            int u0 = sp->first_unit[k], end = sp->first_unit[k + 1];
            for (int u = u0; u < end; u++) {
                if (u > u0 && !LOAD(&sp->done[k])) {
                    *wait = 1; /* its eldest is under way */
                    break;
                }
                long owner = LOAD(&sp->owner[u]);
                if ((sweep == 0 && owner >= 0 && owner != t) || LOAD(&sp->taken[u])) continue;
                long free_slot = 0;
                if (CAS(&sp->taken[u], free_slot, 1)) {
                    STORE(&sp->owner[u], t); /* the others read it only as a preference */
                    return u;
                }
            }
        }
    }
    return -1;
}

/* Thread t's part of the probe at sp->target, unit by unit, until a card reaches the
 * target or every card is refuted. */
static void probe_part(Split *sp, int t) {
    Ctx *c = sp->ctx[t];
    int target = sp->target, spins = 0;
    while (!LOAD(&sp->cut) && !LOAD(&sp->stop)) {
        int wait, u = next_unit(sp, t, &wait);
        if (u < 0) {
            if (!wait) break;
            pause_for(&spins);
            continue;
        }
        int k = sp->unit_card[u], reply = sp->unit_reply[u], v;
        c->moot = k;
        if (reply < 0)
            v = jass_probe(c, &sp->roots[t], target, sp->list[k]);
        else /* the reply's side: at least 1 - target refutes the card */
            v = -jass_probe(c, &sp->child[k], 1 - target, reply);
        c->moot = -1;
        if (c->stopped == 2) { /* moot: the card is refuted, or another reached the target */
            c->stopped = 0;
            continue;
        }
        if (c->stopped) {
            STORE(&sp->stop, 1);
            break;
        }
        if (v < target) { /* refuted: v bounds the card from above */
            STORE(&sp->refuted[k], 1);
            raise_to(&sp->fail, pack(v, k));
        } else if (reply < 0) {
            raise_to(&sp->cut, pack(v, k));
        } else {
            lower_to(&sp->low[k], pack(v, 0));
            int units = sp->first_unit[k + 1] - sp->first_unit[k];
            if (ADD(&sp->done[k], 1) + 1 == units) /* every reply failed: the card makes it */
                raise_to(&sp->cut, pack(value_of(LOAD(&sp->low[k])), k));
        }
    }
    ADD(&sp->finished, 1);
}

/* The units of solve's probes: each root card with each reply, or alone. */
static void make_units(Split *sp, Ctx *c) {
    const Root *root = &sp->roots[0];
    int seat = (root->leader + root->n) & 3;
    sp->units = 0;
    for (int k = 0; k < sp->n; k++) {
        sp->first_unit[k] = sp->units;
        int replies[9], m = 0;
        if (root->n < 3) {
            Root *child = &sp->child[k];
            *child = *root;
            child->hands[seat] ^= BIT(sp->list[k]);
            child->trick[root->n] = sp->list[k];
            child->n = root->n + 1;
            child->side = root->side ^ 1;
            child->own = root->theirs;
            child->theirs = root->own;
            m = jass_root_moves(c, child, replies);
        }
        if (!m) replies[m++] = -1;
        for (int i = 0; i < m; i++) {
            sp->unit_card[sp->units] = k;
            sp->unit_reply[sp->units++] = replies[i];
        }
    }
    sp->first_unit[sp->n] = sp->units;
}

/* Threads 1 and on: take part in each probe the first thread starts, until it quits. */
static void serve(Split *sp, int t) {
    long seen = 0;
    for (;;) {
        long now;
        int spins = 0;
        while ((now = LOAD(&sp->round)) == seen) pause_for(&spins);
        seen = now;
        if (LOAD(&sp->quit)) return;
        probe_part(sp, t);
    }
}

/* The first thread: jass_bisect's plain bisection, each probe split over the threads. */
static void drive(Split *sp) {
    const Root *root = &sp->roots[0];
    int lo = -(root->left + root->theirs), hi = root->left + root->own;
    int best = 0; /* any card makes the bottom */
    while (lo < hi) {
        sp->target = (int)(((long)lo + hi + 1) >> 1);
        STORE(&sp->cut, 0);
        STORE(&sp->fail, 0);
        STORE(&sp->finished, 0);
        for (int u = 0; u < sp->units; u++) STORE(&sp->taken[u], 0);
        for (int k = 0; k < sp->n; k++) {
            STORE(&sp->refuted[k], 0);
            STORE(&sp->done[k], 0);
            STORE(&sp->low[k], pack(INF, 0));
        }
        ADD(&sp->round, 1); /* the others start */
        probe_part(sp, 0);
        int spins = 0;
        while (LOAD(&sp->finished) < sp->running) pause_for(&spins);
        if (LOAD(&sp->stop)) break;
        long cut = LOAD(&sp->cut);
        if (cut) best = (int)(cut % 16);
        jass_narrow(root, sp->target, value_of(cut ? cut : LOAD(&sp->fail)), &lo, &hi);
    }
    STORE(&sp->quit, 1);
    ADD(&sp->round, 1);
    sp->root_lo = lo;
    sp->root_hi = hi;
    sp->best = sp->list[best];
}

/* card_values: card k's exact value, guessed from the last card this thread valued. */
static void value_card(Ctx *c, Split *sp, const Root *root, int k) {
    jass_bisect(c, root, sp->list[k], c->last_value, c->has_last, &sp->lo[k], &sp->hi[k], NULL,
                NULL);
    if (!c->stopped) {
        c->last_value = sp->lo[k];
        c->has_last = 1;
    }
}

typedef struct {
    Split *sp;
    int t;
} Job;

/* For the tests: each thread waits (10 s at most) until every thread has come, which only
 * threads that run at once can do; meet drops to 0 if one waited in vain. */
static void meet_all(Split *sp) {
    ADD(&sp->arrived, 1);
    double until = jass_now_seconds() + 10;
    while (LOAD(&sp->arrived) < sp->threads)
        if (jass_now_seconds() > until) {
            STORE(&sp->meet, 0);
            return;
        }
}

static void work(Split *sp, int t) {
    Ctx *c = sp->ctx[t];
    if (LOAD(&sp->meet)) meet_all(sp);
    if (!sp->values) {
        if (t) serve(sp, t);
        else drive(sp);
        return;
    }
    while (!LOAD(&sp->stop)) {
        int k = (int)ADD(&sp->next, 1);
        if (k >= sp->n) break;
        value_card(c, sp, &sp->roots[t], k);
        if (c->stopped) STORE(&sp->stop, 1);
    }
}

#ifdef _WIN32
static unsigned __stdcall run(void *job) {
    work(((Job *)job)->sp, ((Job *)job)->t);
    return 0;
}
#else
static void *run(void *job) {
    work(((Job *)job)->sp, ((Job *)job)->t);
    return NULL;
}
#endif

/* Search on sp->threads threads: this one and the others it starts (those that fail to
 * start leave their share to the ones that run: the queue serves whoever asks). */
static void run_all(Split *sp) {
    Job jobs[MAX_THREADS];
#ifdef _WIN32
    HANDLE ids[MAX_THREADS];
#else
    pthread_t ids[MAX_THREADS];
#endif
    int started[MAX_THREADS] = {0};
    for (int t = 1; t < sp->threads; t++) {
        jobs[t].sp = sp;
        jobs[t].t = t;
#ifdef _WIN32
        ids[t] = (HANDLE)_beginthreadex(NULL, 0, run, &jobs[t], 0, NULL);
        started[t] = ids[t] != 0;
#else
        started[t] = pthread_create(&ids[t], NULL, run, &jobs[t]) == 0;
#endif
    }
    sp->running = 1;
    for (int t = 1; t < sp->threads; t++) sp->running += started[t];
    work(sp, 0);
    for (int t = 1; t < sp->threads; t++) {
        if (!started[t]) continue;
#ifdef _WIN32
        WaitForSingleObject(ids[t], INFINITE);
        CloseHandle(ids[t]);
#else
        pthread_join(ids[t], NULL);
#endif
    }
}

/* Read the position into every context (each checks it and takes its context). */
static int read_all(Split *sp, PyObject *contexts, PyObject *rest) {
    for (int t = 0; t < sp->threads; t++) {
        PyObject *args = PyTuple_New(1 + PyTuple_Size(rest));
        if (!args) return -1;
        PyObject *cap = PyTuple_GetItem(contexts, t);
        Py_INCREF(cap);
        PyTuple_SetItem(args, 0, cap);
        for (Py_ssize_t i = 0; i < PyTuple_Size(rest); i++) {
            PyObject *item = PyTuple_GetItem(rest, i);
            Py_INCREF(item);
            PyTuple_SetItem(args, i + 1, item);
        }
        sp->ctx[t] = jass_read_call(args, &sp->roots[t]);
        Py_DECREF(args);
        if (!sp->ctx[t]) {
            for (int u = 0; u < t; u++) sp->ctx[u]->busy = 0;
            return -1;
        }
    }
    return 0;
}

/* solve_split(contexts, values, hands, leader, trick, t0, t1, declaring, node_limit,
 * time_limit): solve's result (values 0) or card_values' (values 1), searched on one thread
 * a context (a tuple of 1-64 distinct contexts of the same rules and features), at most one
 * a unit of work (a root card for card_values; for solve, a root card and one reply, so that
 * one legal card still splits). values + 2: the threads must meet first (a test that they
 * run at once). */
PyObject *jass_py_solve_split(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *contexts = PyTuple_Check(args) && PyTuple_Size(args) == 10
                             ? PyTuple_GetItem(args, 0)
                             : NULL;
    if (!contexts || !PyTuple_Check(contexts) || PyTuple_Size(contexts) < 1 ||
        PyTuple_Size(contexts) > MAX_THREADS) {
        PyErr_Format(jass_invalid_input, "contexts must be a tuple of 1-%d solver contexts",
                     MAX_THREADS);
        return NULL;
    }
    long long values; /* bit 0: card values; bit 1: the threads must meet (for the tests) */
    if (jass_arg_ll(PyTuple_GetItem(args, 1), 0, 3, "values", &values) < 0) return NULL;
    Split *sp = (Split *)calloc(1, sizeof(Split));
    if (!sp) return PyErr_NoMemory();
    sp->threads = (int)PyTuple_Size(contexts);
    sp->values = (int)(values & 1);
    sp->meet = (int)(values >> 1);
    PyObject *rest = PyTuple_GetSlice(args, 2, 10);
    int bad = !rest || read_all(sp, contexts, rest) < 0;
    Py_XDECREF(rest);
    if (bad) {
        free(sp);
        return NULL;
    }
    Ctx *c = sp->ctx[0];
    const Root *root = &sp->roots[0];
    long long limit = c->node_limit == UINT64_MAX ? 0 : (long long)c->node_limit;
    int bottom = -(root->left + root->theirs), top = root->left + root->own;
    Py_BEGIN_ALLOW_THREADS
    sp->n = jass_root_moves(c, root, sp->list);
    if (!sp->values) make_units(sp, c);
    for (int u = 0; u < 81; u++) sp->owner[u] = -1;
    sp->node_limit = limit;
    sp->main = c;
    for (int k = 0; k < sp->n; k++) {
        sp->lo[k] = bottom;
        sp->hi[k] = top;
    }
    int work_items = sp->values ? sp->n : sp->units; /* more threads would find nothing */
    int used = sp->threads < work_items ? sp->threads : work_items;
    for (int t = 0; t < sp->threads; t++) {
        Ctx *w = sp->ctx[t];
        w->split = t < used ? sp : NULL;
        w->poll = 1;
        w->deadline = c->deadline; /* one deadline for all */
        w->node_limit = limit ? 0 : UINT64_MAX; /* taken CHUNK by CHUNK (jass_more_nodes) */
    }
    sp->threads = used;
    run_all(sp);
    Py_END_ALLOW_THREADS
    uint64_t nodes = 0, table = 0;
    int exact = 1;
    for (int t = 0; t < (int)PyTuple_Size(contexts); t++) {
        Ctx *w = sp->ctx[t];
        nodes += w->nodes;
        table += w->tt_used;
        if (w->stopped) exact = 0;
        w->split = NULL;
        w->busy = 0;
    }
    PyObject *out;
    if (values >> 1 && !sp->meet) {
        PyErr_SetString(jass_invalid_input, "threads: the split's threads did not run at once");
        out = NULL;
    } else if (sp->values) {
        int most = INT_MIN;
        for (int k = 0; k < sp->n; k++) most = sp->lo[k] > most ? sp->lo[k] : most;
        if (exact && sp->n) c->last_value = most;
        PyObject *found = jass_values_list(c, root, sp->list, sp->n, sp->lo, sp->hi);
        out = found ? Py_BuildValue("NiKK", found, exact, (unsigned long long)nodes,
                                    (unsigned long long)table)
                    : NULL;
    } else {
        int lo = sp->root_lo, hi = sp->root_hi, best = sp->list[0];
        if (sp->n) best = sp->best;
        if (exact) {
            c->last_value = lo;
            c->has_last = 1;
        }
        out = Py_BuildValue("iiiiKKi", lo, exact ? lo : hi, best, exact,
                            (unsigned long long)nodes, (unsigned long long)table,
                            jass_side_points(root, lo));
    }
    free(sp);
    return out;
}
