# What a native engine gives Python and reads from it on every move, at the least cost: the lists it answers
# with (legal ids, legal Actions), made without allocating when they can be, and the small ints it is given
# (seats, ids), read with no branch on their size. Inline C only (cimported by the .pyx engines).
#
# A list: the engine keeps the last list it gave, and when nobody else holds it any more (the caller dropped
# it, as a playing loop does) refills that same list for the next answer. A list a caller still holds is never
# touched: the answer is then a new list, kept in its place.
from cpython.ref cimport PyObject


cdef extern from "Python.h":
    ctypedef struct PyTupleObject:
        PyObject* ob_item[1]


cdef extern from *:
    """
    /* A list of the n objects table[ids[0]], ..., table[ids[n - 1]] (borrowed references; the list takes its
       own): `kept` itself when it is a list nobody else refers to (its one reference is the engine's) with
       room for them, else a new list with room for at least `room`. A new reference; NULL with an exception
       set when out of memory. */
    static PyObject *muggins_refill(PyObject *kept, PyObject *const *table, const int *ids, Py_ssize_t n,
                                    Py_ssize_t room) {
        PyListObject *list = (PyListObject *)kept;
        Py_ssize_t i, old;
        if (kept != NULL && PyList_CheckExact(kept) && Py_REFCNT(kept) == 1 && n <= list->allocated) {
            old = Py_SIZE(list);
            Py_SET_SIZE(list, n);  /* (set first: nothing a reference dropped below could run sees stale items) */
            for (i = 0; i < n; i++) {
                PyObject *was = i < old ? list->ob_item[i] : NULL;  /* (past the size a slot may be stale) */
                PyObject *item = table[ids[i]];
                Py_INCREF(item);
                list->ob_item[i] = item;
                Py_XDECREF(was);
            }
            for (i = n; i < old; i++) {
                PyObject *was = list->ob_item[i];
                list->ob_item[i] = NULL;
                Py_XDECREF(was);
            }
            Py_INCREF(kept);
            return kept;
        }
        list = (PyListObject *)PyList_New(n > room ? n : room);
        if (list == NULL)
            return NULL;
        Py_SET_SIZE(list, n);  /* the slots past n stay NULL: room for a later refill */
        for (i = 0; i < n; i++) {
            PyObject *item = table[ids[i]];
            Py_INCREF(item);
            list->ob_item[i] = item;
        }
        return (PyObject *)list;
    }

    /* The value of the exact int x when it is 0 <= x < 2**30, else -1 (negative or wider). CPython 3.11 and
       earlier keep an int as a signed number of 30-bit digits: zero has none (its first digit is masked off),
       a small positive int one. */
    static inline long muggins_small_int(PyObject *x) {
    #if PY_VERSION_HEX < 0x030C0000 && defined(PyLong_SHIFT) && PyLong_SHIFT == 30
        Py_ssize_t size = Py_SIZE(x);
        if ((size_t)size <= 1)
            return (long)(((PyLongObject *)x)->ob_digit[0] & (0u - (unsigned int)size));
    #endif
        int overflow;
        long v = PyLong_AsLongAndOverflow(x, &overflow);
        return overflow || v < 0 ? -1 : v;
    }
    """
    list muggins_refill(PyObject* kept, PyObject** table, const int* ids, Py_ssize_t n, Py_ssize_t room)
    long muggins_small_int(PyObject* x) noexcept


cdef inline PyObject** tuple_items(tuple t) noexcept:
    """The items of ``t`` as an array (borrowed references)."""
    return <PyObject**>&(<PyTupleObject*>t).ob_item[0]
