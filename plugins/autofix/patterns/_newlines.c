/* Newline work of the classifier in C (the native build, setup.py); newlines.py is the pure
 * build's same code in Python, and the tests hold the two equal.
 *
 * count: CPython's bytes.count stops at a maximum count, so its one-byte loop stays scalar
 * (about 2 GB/s). This loop has no early exit: 16 bytes a step with SSE2, a plain loop
 * elsewhere, which compilers vectorise.
 * to_line_ends: the engine's hits carry their match's end; each becomes its line's end.
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

static PyObject *
newlines_to_line_ends(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "to_line_ends(data, hits: list, bits): three arguments");
        return NULL;
    }
    long bits = PyLong_AsLong(args[2]);
    if (bits == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (bits < 0 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "bits: 0 to 30");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    const char *data = view.buf;
    const long long size = view.len, mask = (1LL << bits) - 1;
    long long low = 0, high = -1; /* ends from low to high are on the line ending at high */
    PyObject *hits = args[1];
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(hits); k++) {
        PyObject *item = PyList_GET_ITEM(hits, k);
        long long value = PyLong_AsLongLong(item);
        if (value == -1 && PyErr_Occurred()) {
            PyBuffer_Release(&view);
            return NULL;
        }
        long long end = value >> bits;
        if (end < 0 || end > size) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "a hit's end is outside data");
            return NULL;
        }
        if (end == size || data[end] == '\n') {
            continue; /* a tailed expression's, or the match ended its line */
        }
        if (end > high || end < low) {
            const char *newline = memchr(data + end, '\n', (size_t)(size - end));
            low = end;
            high = newline == NULL ? size : newline - data;
        }
        PyObject *mapped = PyLong_FromLongLong(high << bits | (value & mask));
        if (mapped == NULL) {
            PyBuffer_Release(&view);
            return NULL;
        }
        PyList_SET_ITEM(hits, k, mapped);
        Py_DECREF(item);
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyMethodDef newlines_methods[] = {
    {"count", (PyCFunction)(void (*)(void))newlines_count, METH_FASTCALL,
     "count(data, start, end): the newlines in data[start:end], as data.count(b'\\n', start, end)."},
    {"to_line_ends", (PyCFunction)(void (*)(void))newlines_to_line_ends, METH_FASTCALL,
     "to_line_ends(data, hits, bits): each hit (end << bits | id) with end moved to its line's end, in place."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef newlines_module = {
    PyModuleDef_HEAD_INIT, "_newlines", "Newline work of the classifier.", 0, newlines_methods,
};

PyMODINIT_FUNC
PyInit__newlines(void)
{
    return PyModule_Create(&newlines_module);
}
