/* Newline work of the classifier in C (the native build, setup.py); newlines.py is the pure
 * build's same code in Python, and the tests hold the two equal.
 *
 * count: CPython's bytes.count stops at a maximum count, so its one-byte loop stays scalar
 * (about 2 GB/s). This loop has no early exit: 16 bytes a step with SSE2, a plain loop
 * elsewhere, which compilers vectorise.
 * Hits: the engine's match handler; a match carries its own end, which becomes its line's end.
 * The lines a prefilter marked are handed out joined, and the exact database's hits on them come
 * back in, so a confirmed rule costs no Python per line either.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static Py_ssize_t
count_range(const unsigned char *p, Py_ssize_t n)
{
    Py_ssize_t total = 0;
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi8('\n');
    while (n >= 16) {
        /* Each byte lane counts to at most 255 before it is summed. */
        Py_ssize_t steps = n / 16 > 255 ? 255 : n / 16;
        __m128i lanes = _mm_setzero_si128();
        for (Py_ssize_t k = 0; k < steps; k++, p += 16) {
            __m128i block = _mm_loadu_si128((const __m128i *)p);
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(block, newline));
        }
        __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
        total += _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
        n -= steps * 16;
    }
#endif
    for (Py_ssize_t i = 0; i < n; i++) {
        total += p[i] == '\n';
    }
    return total;
}

static Py_ssize_t
clamp(Py_ssize_t index, Py_ssize_t size)
{
    /* bytes.count's own slice rules: negative from the end, then within [0, size]. */
    if (index < 0) {
        index += size;
        if (index < 0) {
            index = 0;
        }
    }
    return index > size ? size : index;
}

static PyObject *
newlines_count(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "count(data, start, end): three arguments");
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    start = clamp(start, view.len);
    end = clamp(end, view.len);
    Py_ssize_t total = end > start ? count_range((const unsigned char *)view.buf + start, end - start) : 0;
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(total);
}

/* Hits: the engine's match handler. Each call keeps one match as end << bits | id in a C array;
 * take(data) moves every end to its line's end and returns the rule hits, sorted and once each,
 * and each line's smallest id. A match of the candidate id marks its line instead:
 * candidate_lines(data) hands the marked lines out joined, and absorb(other) takes another
 * handler's hits on them as this data's. ``also``: (id, other) pairs, a hit of id reported for
 * other too (a flag whose expression is a rule's, scanned once). */
#define MAX_ALSO 4
typedef struct {
    PyObject_HEAD
    long long *values;
    Py_ssize_t size, capacity;
    long long *marked, *joined_ends; /* the marked lines' ends, in data and in the joined lines */
    Py_ssize_t n_marked;
    int bits;
    long long candidate;
    int n_also;
    long long also_id[MAX_ALSO], also_other[MAX_ALSO];
} Hits;

static void
hits_dealloc(Hits *self)
{
    PyMem_Free(self->values);
    PyMem_Free(self->marked);
    PyMem_Free(self->joined_ends);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
hits_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    int bits;
    long long candidate;
    PyObject *also = NULL;
    static char *names[] = {"bits", "candidate", "also", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iL|O", names, &bits, &candidate, &also)) {
        return NULL;
    }
    if (bits < 1 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "bits: 1 to 30");
        return NULL;
    }
    PyObject *pairs = also == NULL ? PyTuple_New(0) : PySequence_Fast(also, "also: (id, other) pairs");
    if (pairs == NULL) {
        return NULL;
    }
    Hits *self = NULL;
    if (PySequence_Fast_GET_SIZE(pairs) > MAX_ALSO) {
        PyErr_SetString(PyExc_ValueError, "also: at most 4 pairs");
        goto done;
    }
    self = (Hits *)type->tp_alloc(type, 0);
    if (self == NULL) {
        goto done;
    }
    self->bits = bits;
    self->candidate = candidate;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(pairs); k++) {
        long long id, other;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(pairs, k), "LL", &id, &other)) {
            Py_CLEAR(self);
            goto done;
        }
        self->also_id[k] = id;
        self->also_other[k] = other;
        self->n_also = (int)k + 1;
    }
done:
    Py_DECREF(pairs);
    return (PyObject *)self;
}

static int
keep(Hits *self, long long value)
{
    if (self->size == self->capacity) {
        Py_ssize_t capacity = self->capacity ? self->capacity * 2 : 1024;
        long long *grown = PyMem_Realloc(self->values, (size_t)capacity * sizeof(long long));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        self->values = grown;
        self->capacity = capacity;
    }
    self->values[self->size++] = value;
    return 0;
}

/* (id, from, to, flags, context), as the hyperscan binding calls a handler; None: go on. */
static PyObject *
hits_call(Hits *self, PyObject *args, PyObject *kwargs)
{
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 3) {
        PyErr_SetString(PyExc_TypeError, "Hits(id, from, to, ...)");
        return NULL;
    }
    unsigned long long id = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 0));
    unsigned long long to = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 2));
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (id >> self->bits || to >> (62 - self->bits)) {
        PyErr_SetString(PyExc_ValueError, "a match id or end out of range");
        return NULL;
    }
    if (keep(self, (long long)(to << self->bits | id)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static int
ascending(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Sorts ascending. The engine reports in end order, so only the ids of one line are out of
 * order: insertion sort, unless it moves too much (then qsort). */
static void
sort_values(long long *values, Py_ssize_t n)
{
    Py_ssize_t moves = 0;
    for (Py_ssize_t k = 1; k < n; k++) {
        long long value = values[k];
        Py_ssize_t j = k;
        while (j > 0 && values[j - 1] > value) {
            values[j] = values[j - 1];
            j--;
        }
        values[j] = value;
        moves += k - j;
        if (moves > 8 * n + 64) {
            qsort(values, (size_t)n, sizeof(long long), ascending);
            return;
        }
    }
}

/* Sorts ascending and keeps each value once; returns how many are kept. */
static Py_ssize_t
sort_unique(long long *values, Py_ssize_t n)
{
    sort_values(values, n);
    Py_ssize_t kept = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!kept || values[k] != values[kept - 1]) {
            values[kept++] = values[k];
        }
    }
    return kept;
}

static PyObject *
long_list(const long long *values, Py_ssize_t n)
{
    PyObject *list = PyList_New(n);
    for (Py_ssize_t k = 0; list != NULL && k < n; k++) {
        PyObject *item = PyLong_FromLongLong(values[k]);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, k, item);
    }
    return list;
}

/* The end of the line holding a match that ends at ``end`` (<= size): the first newline from
 * it, or size. ``low``..``high``: the last line found, reused while the ends stay on it. */
static long long
line_end(const char *data, long long size, long long end, long long *low, long long *high)
{
    if (end == size || data[end] == '\n') {
        return end; /* a tailed expression's, or its line's end */
    }
    if (end > *high || end < *low) {
        const char *newline = memchr(data + end, '\n', (size_t)(size - end));
        *low = end;
        *high = newline == NULL ? size : newline - data;
    }
    return *high;
}

static int
get_data(PyObject *data_object, Py_buffer *view, Hits *self)
{
    if (PyObject_GetBuffer(data_object, view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    const long long size = view->len;
    for (Py_ssize_t k = 0; k < self->size; k++) {
        if (self->values[k] >> self->bits > size) {
            PyErr_SetString(PyExc_ValueError, "a hit's end is outside data");
            PyBuffer_Release(view);
            return -1;
        }
    }
    return 0;
}

/* candidate_lines(data): the lines the candidate id marked, ascending and once each, joined,
 * each with a newline; their matches leave the handler, for absorb. */
static PyObject *
hits_candidate_lines(Hits *self, PyObject *data_object)
{
    Py_buffer view;
    if (get_data(data_object, &view, self) < 0) {
        return NULL;
    }
    const char *data = view.buf;
    const long long size = view.len, mask = (1LL << self->bits) - 1;
    long long low = 0, high = -1, total = 0;
    PyObject *joined = NULL;
    Py_ssize_t kept = 0, marked = 0;
    PyMem_Free(self->marked);
    PyMem_Free(self->joined_ends);
    self->n_marked = 0;
    self->marked = PyMem_Malloc(((size_t)self->size + 1) * sizeof(long long));
    self->joined_ends = NULL;
    if (self->marked == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < self->size; k++) {
        long long value = self->values[k];
        if ((value & mask) == self->candidate) {
            self->marked[marked++] = line_end(data, size, value >> self->bits, &low, &high);
        } else {
            self->values[kept++] = value;
        }
    }
    self->size = kept;
    marked = sort_unique(self->marked, marked);
    self->joined_ends = PyMem_Malloc(((size_t)marked + 1) * sizeof(long long));
    if (self->joined_ends == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    long long previous = -1;
    for (Py_ssize_t k = 0; k < marked; k++) { /* sized first: one bytes object, filled once */
        long long end = self->marked[k], start = end;
        while (start > previous + 1 && data[start - 1] != '\n') {
            start--;
        }
        total += end - start + 1;
        self->joined_ends[k] = start; /* each line's start, for now */
        previous = end;
    }
    joined = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (joined == NULL) {
        goto done;
    }
    char *out = PyBytes_AS_STRING(joined);
    long long offset = 0;
    for (Py_ssize_t k = 0; k < marked; k++) {
        long long start = self->joined_ends[k], length = self->marked[k] - start;
        memcpy(out + offset, data + start, (size_t)length);
        offset += length;
        out[offset] = '\n';
        self->joined_ends[k] = offset++;
    }
    self->n_marked = marked;
done:
    PyBuffer_Release(&view);
    return joined;
}

static PyTypeObject HitsType;

/* absorb(other): other's hits, on the lines candidate_lines joined, as hits on their lines in
 * this handler's data. Empties other. */
static PyObject *
hits_absorb(Hits *self, PyObject *other_object)
{
    if (!PyObject_TypeCheck(other_object, &HitsType)) {
        PyErr_SetString(PyExc_TypeError, "absorb(other): a Hits");
        return NULL;
    }
    Hits *other = (Hits *)other_object;
    if (other->bits != self->bits) {
        PyErr_SetString(PyExc_ValueError, "absorb(other): the same bits");
        return NULL;
    }
    const long long mask = (1LL << other->bits) - 1;
    PyObject *result = Py_None;
    for (Py_ssize_t k = 0; k < other->size && result != NULL; k++) {
        long long to = other->values[k] >> other->bits, id = other->values[k] & mask;
        Py_ssize_t low = 0, high = self->n_marked; /* the first joined line ending at or after to */
        while (low < high) {
            Py_ssize_t middle = (low + high) / 2;
            if (self->joined_ends[middle] < to) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        if (low == self->n_marked) {
            PyErr_SetString(PyExc_ValueError, "a hit outside the joined candidate lines");
            result = NULL;
        } else if (id != other->candidate && keep(self, self->marked[low] << self->bits | id) < 0) {
            result = NULL;
        }
    }
    other->size = 0;
    return Py_XNewRef(result);
}

/* dict[key] = value, both ints; -1 on an error. */
static int
set_int_item(PyObject *dict, long long key, long long value)
{
    PyObject *key_object = PyLong_FromLongLong(key), *value_object = PyLong_FromLongLong(value);
    int failed = key_object == NULL || value_object == NULL ||
                 PyDict_SetItem(dict, key_object, value_object) < 0;
    Py_XDECREF(key_object);
    Py_XDECREF(value_object);
    return failed ? -1 : 0;
}

/* take(data): (rule hits as line end << bits | id, ascending, each once; line end -> the
 * smallest id that hit it). Matches of the candidate id are left out. Empties the handler. */
static PyObject *
hits_take(Hits *self, PyObject *data_object)
{
    Py_buffer view;
    if (get_data(data_object, &view, self) < 0) {
        self->size = 0;
        return NULL;
    }
    const char *data = view.buf;
    const long long size = view.len, mask = (1LL << self->bits) - 1;
    long long low = 0, high = -1;
    Py_ssize_t found = 0;
    PyObject *hits = NULL, *first = NULL, *result = NULL;
    long long *rule_hits = PyMem_Malloc(((size_t)self->size * (size_t)(1 + self->n_also) + 1) * sizeof(long long));
    if (rule_hits == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < self->size; k++) {
        long long value = self->values[k], id = value & mask;
        if (id == self->candidate) {
            continue;
        }
        long long end = line_end(data, size, value >> self->bits, &low, &high);
        rule_hits[found++] = end << self->bits | id;
        for (int a = 0; a < self->n_also; a++) {
            if (self->also_id[a] == id) {
                rule_hits[found++] = end << self->bits | self->also_other[a];
            }
        }
    }
    found = sort_unique(rule_hits, found);
    hits = long_list(rule_hits, found);
    first = PyDict_New();
    if (hits == NULL || first == NULL) {
        goto done;
    }
    /* Descending ends, as the pure build's dict is filled (its order reaches the report). */
    for (Py_ssize_t k = found - 1; k >= 0; k--) {
        long long end = rule_hits[k] >> self->bits;
        if (k && end == rule_hits[k - 1] >> self->bits) {
            continue; /* sorted: a line's first value holds its smallest id */
        }
        if (set_int_item(first, end, rule_hits[k] & mask) < 0) {
            goto done;
        }
    }
    result = PyTuple_Pack(2, hits, first);
done:
    self->size = 0;
    self->n_marked = 0;
    PyMem_Free(rule_hits);
    Py_XDECREF(hits);
    Py_XDECREF(first);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef hits_methods[] = {
    {"candidate_lines", (PyCFunction)hits_candidate_lines, METH_O,
     "candidate_lines(data): the lines the candidate id marked, joined, each with a newline."},
    {"absorb", (PyCFunction)hits_absorb, METH_O,
     "absorb(other): other's hits on the joined candidate lines, as hits on their lines here."},
    {"take", (PyCFunction)hits_take, METH_O,
     "take(data): (sorted rule hits as line end << bits | id, line end -> smallest id); "
     "empties it."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject HitsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "autofix.patterns._newlines.Hits",
    .tp_basicsize = sizeof(Hits),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Hits(bits, candidate, also=()): the engine's match handler, in C.",
    .tp_new = hits_new,
    .tp_dealloc = (destructor)hits_dealloc,
    .tp_call = (ternaryfunc)hits_call,
    .tp_methods = hits_methods,
};

/* summary(first, special): what the walk needs of a chunk's lines, from first (line end ->
 * its first id): each first id's count, in the order a Counter of first.values() has, and the
 * ends whose first id is special (special[id] is True), ascending. */
static PyObject *
newlines_summary(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "summary(first: dict, special: tuple)");
        return NULL;
    }
    PyObject *first = args[0], *special = args[1], *counts = NULL, *todo = NULL, *result = NULL;
    Py_ssize_t ids = PyTuple_GET_SIZE(special), lines = PyDict_GET_SIZE(first);
    Py_ssize_t *tally = PyMem_Calloc((size_t)ids + 1, sizeof(Py_ssize_t));
    Py_ssize_t *order = PyMem_Malloc(((size_t)ids + 1) * sizeof(Py_ssize_t));
    long long *ends = PyMem_Malloc(((size_t)lines + 1) * sizeof(long long));
    Py_ssize_t seen = 0, found = 0, position = 0;
    PyObject *key, *value;
    if (tally == NULL || order == NULL || ends == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    while (PyDict_Next(first, &position, &key, &value)) {
        Py_ssize_t id = PyLong_AsSsize_t(value);
        if (id == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (id < 0 || id >= ids) {
            PyErr_SetString(PyExc_ValueError, "a first id outside special");
            goto done;
        }
        if (!tally[id]++) {
            order[seen++] = id;
        }
        if (PyTuple_GET_ITEM(special, id) == Py_True) {
            long long end = PyLong_AsLongLong(key);
            if (end == -1 && PyErr_Occurred()) {
                goto done;
            }
            ends[found++] = end;
        }
    }
    for (Py_ssize_t k = 0; k < found / 2; k++) { /* filled by descending end: mostly reversed */
        long long swap = ends[k];
        ends[k] = ends[found - 1 - k];
        ends[found - 1 - k] = swap;
    }
    sort_values(ends, found);
    todo = long_list(ends, found);
    counts = PyDict_New();
    if (todo == NULL || counts == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < seen; k++) {
        if (set_int_item(counts, order[k], tally[order[k]]) < 0) {
            goto done;
        }
    }
    result = PyTuple_Pack(2, counts, todo);
done:
    PyMem_Free(tally);
    PyMem_Free(order);
    PyMem_Free(ends);
    Py_XDECREF(counts);
    Py_XDECREF(todo);
    return result;
}

static PyMethodDef newlines_methods[] = {
    {"summary", (PyCFunction)(void (*)(void))newlines_summary, METH_FASTCALL,
     "summary(first, special): (first id -> count, the ends whose first id is special)."},
    {"count", (PyCFunction)(void (*)(void))newlines_count, METH_FASTCALL,
     "count(data, start, end): the newlines in data[start:end], as data.count(b'\\n', start, end)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef newlines_module = {
    PyModuleDef_HEAD_INIT, "_newlines", "Newline work of the classifier.", 0, newlines_methods,
};

PyMODINIT_FUNC
PyInit__newlines(void)
{
    if (PyType_Ready(&HitsType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&newlines_module);
    if (module != NULL && PyModule_AddObjectRef(module, "Hits", (PyObject *)&HitsType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
