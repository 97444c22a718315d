/* The SCOUT bots' hand arithmetic in C (optional; parlour.bots.scout.heuristic keeps the pure-
 * Python versions and uses these when they are built): hand_shape, the heuristic's and the
 * feature evaluation's value of a Scout & Show's best following Show, and the searches'
 * playouts to the end of a round.
 *
 * They give exactly what the Python functions give: the same integers, and the same doubles,
 * computed in the same order (built with -ffp-contract=off, so that no multiply-add is fused);
 * a playout makes the same moves from the same draws of the caller's random generator.
 * Input they do not expect (not a tuple of small ints) goes to the Python versions, given by
 * configure(name, function); a playout returns None for it (the caller plays it in Python).
 * The playouts and the option scores are in _cheur_search.c. */

#include "_cheur.h"

#define ABI 6

static PyObject *shape_fallback = NULL;
static PyObject *follow_fallback = NULL;
static PyObject *eval_fallback = NULL;

static PyObject *fallback(PyObject *to, PyObject *const *args, Py_ssize_t nargs) {
    if (to == NULL) {
        PyErr_SetString(PyExc_TypeError, "an unexpected argument, and configure() was not called");
        return NULL;
    }
    return PyObject_Vectorcall(to, args, nargs, NULL);
}

static PyObject *hand_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long v[MAX_CARDS];
    Py_ssize_t n = 0;
    double set_bonus = 1.25;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "hand_shape(values, set_bonus=1.25)");
        return NULL;
    }
    if (nargs == 2) {
        if (!PyFloat_CheckExact(args[1])) return fallback(shape_fallback, args, nargs);
        set_bonus = PyFloat_AS_DOUBLE(args[1]);
    }
    if (!read_hand(args[0], v, &n)) return fallback(shape_fallback, args, nargs);
    Shape s = shape_of(v, n, set_bonus);
    return Py_BuildValue("(llld)", s.groups, s.lone, s.best, s.measure);
}

/* heuristic._best_following_show without the cache: the best value, over every Show beating
 * strength `target` from `held` (every valid group held[i:j], shortest first from each i), of
 * captured * w_captured + quality(what is left) + w_tempo * its strength (+ 100 when nothing is
 * left); -1e9 if there is none. Arguments: held, target, captured, then the weights per_group,
 * lone_card, strength, captured, tempo, hand_card (heuristic.Weights). */
static PyObject *best_following_show(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long h[MAX_CARDS], left[MAX_CARDS];
    Py_ssize_t n = 0;
    double w[6];
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "best_following_show(held, target, captured, 6 weights)");
        return NULL;
    }
    if (!read_hand(args[0], h, &n)) return fallback(follow_fallback, args, nargs);
    for (int k = 0; k < 6; k++) {
        if (!PyFloat_CheckExact(args[3 + k])) return fallback(follow_fallback, args, nargs);
        w[k] = PyFloat_AS_DOUBLE(args[3 + k]);
    }
    long target, captured;
    if (!read_long(args[1], &target) || !read_long(args[2], &captured))
        return fallback(follow_fallback, args, nargs);
    const double per_group = w[0], lone_card = w[1], strength = w[2], w_captured = w[3],
                 tempo = w[4], hand_card = w[5];
    double points = w_captured * (double)captured;
    double best = -1e9;
    for (Py_ssize_t i = 0; i < n; i++) {
        long step = 0;
        for (Py_ssize_t end = i + 1; end <= n; end++) {
            long key;
            if (!group_at(h, i, end, &step, &key)) break;
            if (key <= target) continue;
            Py_ssize_t m = without(h, n, i, end, left);
            double quality;
            if (m == 0) {
                quality = 2.0;
            } else {
                Shape s = shape_of(left, m, 1.25);
                quality = (-per_group) * (double)s.groups;
                quality = quality - lone_card * (double)s.lone;
                quality = quality + strength * (double)(s.best >> 3);
                quality = quality - hand_card * (double)m * 0.1;
            }
            double value = points + quality + tempo * (double)key;
            double with = value + (m == 0 ? 100.0 : 0.0);
            if (with > best) best = with;
        }
    }
    return PyFloat_FromDouble(best);
}

/* features._best_following_show without the cache: (start, end, strength) of the Show beating
 * strength `target` from `held` that the feature weights `w` value most (the first of equals),
 * each valued as features.dot(w, its _vector) would, term by term in the same order; None if
 * there is none. Arguments: held, target, captured_cards, chip, opponents (their hand sizes),
 * w (the 14 weights). */
static PyObject *eval_following_show(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long h[MAX_CARDS], left[MAX_CARDS], opp[MAX_CARDS];
    Py_ssize_t n = 0, n_opp = 0;
    double w[N_FEATURES];
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "eval_following_show(held, target, captured, chip, opponents, w)");
        return NULL;
    }
    if (!read_hand(args[0], h, &n) || !PyFloat_CheckExact(args[3]) ||
        !read_hand(args[4], opp, &n_opp) || n_opp == 0 || !PyTuple_CheckExact(args[5]) ||
        PyTuple_GET_SIZE(args[5]) != N_FEATURES)
        return fallback(eval_fallback, args, nargs);
    for (int k = 0; k < N_FEATURES; k++) {
        PyObject *item = PyTuple_GET_ITEM(args[5], k);
        if (!PyFloat_CheckExact(item)) return fallback(eval_fallback, args, nargs);
        w[k] = PyFloat_AS_DOUBLE(item);
    }
    long target, captured_cards;
    if (!read_long(args[1], &target) || !read_long(args[2], &captured_cards))
        return fallback(eval_fallback, args, nargs);
    double captured = (double)captured_cards, chip = PyFloat_AS_DOUBLE(args[3]);
    long fewest = opp[0];
    for (Py_ssize_t t = 1; t < n_opp; t++)
        if (opp[t] < fewest) fewest = opp[t];
    if (fewest < 1) fewest = 1;
    double safe[MAX_CARDS + 1];
    for (Py_ssize_t m = 0; m <= n; m++) {
        long below = 0;
        for (Py_ssize_t t = 0; t < n_opp; t++) below += opp[t] < m;
        safe[m] = (double)below / (double)n_opp;
    }
    int found = 0;
    Py_ssize_t best_i = 0, best_j = 0;
    long best_key = 0;
    double best_value = -Py_HUGE_VAL;
    for (Py_ssize_t i = 0; i < n; i++) {
        long step = 0;
        for (Py_ssize_t end = i + 1; end <= n; end++) {
            long key;
            if (!group_at(h, i, end, &step, &key)) break;
            if (key <= target) continue;
            Py_ssize_t m = without(h, n, i, end, left);
            Shape s = shape_of(left, m, 1.25);
            double groups = (double)s.groups, lone = (double)s.lone;
            double strength = (double)s.best / 32.0, count = (double)m;
            double value = w[0] * groups;
            value = value + w[1] * lone;
            value = value + w[2] * strength;
            value = value + w[3] * count;
            value = value + w[4] * s.measure;
            value = value + w[5] * (count / (double)fewest);
            value = value + w[6] * captured;
            value = value + w[7] * chip;
            value = value + w[8] * 1.0;
            value = value + w[9] * ((double)key / 32.0);
            value = value + w[10] * safe[end - i];
            value = value + w[11] * 0.0;
            value = value + w[12] * 0.0;
            value = value + w[13] * (m ? 0.0 : 1.0);
            if (value > best_value) {
                found = 1;
                best_value = value;
                best_i = i;
                best_j = end;
                best_key = key;
            }
        }
    }
    if (!found) Py_RETURN_NONE;
    return Py_BuildValue("(nnl)", best_i, best_j, best_key);
}

static PyObject *configure(PyObject *self, PyObject *args) {
    const char *name;
    PyObject *to;
    if (!PyArg_ParseTuple(args, "sO", &name, &to)) return NULL;
    PyObject **slot = strcmp(name, "hand_shape") == 0            ? &shape_fallback
                      : strcmp(name, "best_following_show") == 0 ? &follow_fallback
                      : strcmp(name, "eval_following_show") == 0 ? &eval_fallback
                                                                 : NULL;
    if (slot == NULL) {
        PyErr_Format(PyExc_ValueError, "no compiled function %s", name);
        return NULL;
    }
    Py_XSETREF(*slot, Py_NewRef(to));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(name, fallback): the Python function given unusual input to `name`"},
    {"eval_following_show", (PyCFunction)(void (*)(void))eval_following_show, METH_FASTCALL,
     "eval_following_show(held, target, captured, chip, opponents, w) -> (i, j, key) | None"},
    {"plain_scores", (PyCFunction)(void (*)(void))cheur_plain_scores, METH_FASTCALL,
     "plain_scores(hand, active, opponents, ss_kept, ends, options, w, Show, Scout) -> "
     "list[float] | None"},
    {"model_rollout", (PyCFunction)(void (*)(void))cheur_model_rollout, METH_FASTCALL,
     "model_rollout(hands, active, owner, turn, scouts, pending, piles, chips, seat, scout_show, "
     "w, temperature, random, moves[, totals]) -> float | None"},
    {"rollout", (PyCFunction)(void (*)(void))cheur_rollout, METH_FASTCALL,
     "rollout(hands, active, owner, turn, scouts, pending, piles, chips, seat, random, "
     "randrange[, totals]) -> float | None"},
    {"hand_shape", (PyCFunction)(void (*)(void))hand_shape, METH_FASTCALL,
     "hand_shape(values, set_bonus=1.25) -> (groups, lone, best, measure)"},
    {"best_following_show", (PyCFunction)(void (*)(void))best_following_show, METH_FASTCALL,
     "best_following_show(held, target, captured, per_group, lone_card, strength, captured_w, "
     "tempo, hand_card) -> float"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cheur", "The SCOUT bots' hand arithmetic in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__cheur(void) {
    if (!cheur_search_init()) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "ABI_VERSION", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
