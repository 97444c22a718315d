/* The SCOUT bots' hand arithmetic in C (optional; parlour.bots.scout.heuristic keeps the pure-
 * Python versions and uses these when they are built): hand_shape, and the heuristic's value of
 * a Scout & Show's best following Show.
 *
 * Both give exactly what the Python functions give: the same integers, and the same doubles,
 * computed in the same order (built with -ffp-contract=off, so that no multiply-add is fused).
 * Input they do not expect (not a tuple of small ints) goes to the Python versions, given by
 * configure(). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define ABI 1
#define MAX_CARDS 64

static PyObject *shape_fallback = NULL;
static PyObject *follow_fallback = NULL;

static PyObject *fallback(PyObject *to, PyObject *const *args, Py_ssize_t nargs) {
    if (to == NULL) {
        PyErr_SetString(PyExc_TypeError, "an unexpected argument, and configure() was not called");
        return NULL;
    }
    return PyObject_Vectorcall(to, args, nargs, NULL);
}

/* The numbers of a tuple of ints (at most MAX_CARDS, each within +-1000); 0 if it is not one. */
static int read_hand(PyObject *seq, long *out, Py_ssize_t *n) {
    if (!PyTuple_CheckExact(seq)) return 0;
    Py_ssize_t len = PyTuple_GET_SIZE(seq);
    if (len > MAX_CARDS) return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!PyLong_CheckExact(item)) return 0;
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || v < -1000 || v > 1000) {
            PyErr_Clear();
            return 0;
        }
        out[i] = v;
    }
    *n = len;
    return 1;
}

typedef struct {
    long groups, lone, best;
    double measure;
} Shape;

/* heuristic.hand_shape: maximal groups, lone cards, the strongest group's key, the measure. */
static Shape shape_of(const long *v, Py_ssize_t n, double set_bonus) {
    Shape s = {0, 0, 0, 0.0};
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t j = i + 1;
        long step = 0;
        if (j < n && v[j] - v[i] >= -1 && v[j] - v[i] <= 1) {
            step = v[j] - v[i];
            while (j < n && v[j] - v[j - 1] == step) j++;
        }
        long k = (long)(j - i);
        s.groups += 1;
        if (k == 1)
            s.lone += 1;
        else
            s.measure += (double)(k * k) * (step == 0 ? set_bonus : 1.0);
        i = j;
    }
    long length = 0, run = 99, prev = -99;
    for (Py_ssize_t t = 0; t < n; t++) {
        long x = v[t], d = x - prev;
        prev = x;
        if (d == run)
            length += 1;
        else if (d >= -1 && d <= 1) {
            length = 2;
            run = d;
        } else {
            length = 1;
            run = 99;
        }
        long key;
        if (run == 1)
            key = (length << 5) + x - length + 1;
        else
            key = (length << 5) + (run == -1 ? x : 16 + x);
        if (key > s.best) s.best = key;
    }
    return s;
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
    if (!read_hand(args[0], h, &n) || !PyLong_CheckExact(args[1]) || !PyLong_CheckExact(args[2]))
        return fallback(follow_fallback, args, nargs);
    for (int k = 0; k < 6; k++) {
        if (!PyFloat_CheckExact(args[3 + k])) return fallback(follow_fallback, args, nargs);
        w[k] = PyFloat_AS_DOUBLE(args[3 + k]);
    }
    int overflow = 0;
    long target = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (overflow) return fallback(follow_fallback, args, nargs);
    long captured = PyLong_AsLongAndOverflow(args[2], &overflow);
    if (overflow || PyErr_Occurred()) {
        PyErr_Clear();
        return fallback(follow_fallback, args, nargs);
    }
    const double per_group = w[0], lone_card = w[1], strength = w[2], w_captured = w[3],
                 tempo = w[4], hand_card = w[5];
    double points = w_captured * (double)captured;
    double best = -1e9;
    for (Py_ssize_t i = 0; i < n; i++) {
        long first = h[i];
        long step = 0;
        for (Py_ssize_t end = i + 1; end <= n; end++) {
            long key;
            Py_ssize_t length = end - i;
            if (end == i + 1) {
                key = 48 + first;
            } else {
                long d = h[end - 1] - h[end - 2];
                if (end == i + 2) {
                    if (d < -1 || d > 1) break;
                    step = d;
                } else if (d != step) {
                    break;
                }
                if (step == 0)
                    key = ((long)length << 5) + 16 + first;
                else
                    key = ((long)length << 5) + (step == 1 ? first : h[end - 1]);
            }
            if (key <= target) continue;
            Py_ssize_t m = 0;
            for (Py_ssize_t t = 0; t < i; t++) left[m++] = h[t];
            for (Py_ssize_t t = end; t < n; t++) left[m++] = h[t];
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

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *shape, *follow;
    if (!PyArg_ParseTuple(args, "OO", &shape, &follow)) return NULL;
    Py_XSETREF(shape_fallback, Py_NewRef(shape));
    Py_XSETREF(follow_fallback, Py_NewRef(follow));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(hand_shape_py, best_following_show_py)"},
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
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "ABI_VERSION", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
