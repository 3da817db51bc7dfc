/* Stand-in for Raspberry Pi OS's python3-simplejpeg: a compiled module built against
 * numpy 1.x headers, as the system's camera stack is. Its import runs numpy's own ABI
 * check (import_array), which fails under numpy 2.x the way the real module does. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

static PyObject *nbytes(PyObject *self, PyObject *args) {
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj)) return NULL;
    if (!PyArray_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an ndarray is needed");
        return NULL;
    }
    return PyLong_FromSsize_t((Py_ssize_t)PyArray_NBYTES((PyArrayObject *)obj));
}

static PyMethodDef methods[] = {
    {"nbytes", nbytes, METH_VARARGS, "The array's size in bytes, read through numpy's C API."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "simplejpeg", NULL, -1, methods};

PyMODINIT_FUNC PyInit_simplejpeg(void) {
    import_array();
    return PyModule_Create(&module);
}
