// bindings/method_self.h — every bound method refuses None as `self`.
//
// pybind11 2.10 checks `self` against None only in methods bound with py::arg annotations
// (pybind11/attr.h, append_self_arg_if_needed). A method bound without them, such as
// .def("to_json", &RolloutResult::to_json), accepts None: `nardy.RolloutResult.to_json(None)`
// called the member function on a null pointer and killed the interpreter (found by
// tests/python/test_fuzz_api.py). require_self_not_none(), run once after every class is bound,
// gives each such method the argument records an annotated method gets: `self` refuses None
// (pybind11's TypeError "incompatible function arguments"), every other argument is converted as
// before (no names, no defaults: the records of unannotated methods had neither).
#pragma once

#include <pybind11/pybind11.h>

#include <cstring>

namespace nardy::py_bind {

namespace method_self_detail {

namespace py = pybind11;

inline py::detail::function_record* record_of(py::handle f) {
  f = py::detail::get_function(f);
  if (!f || !PyCFunction_Check(f.ptr())) return nullptr;
  py::handle self = PyCFunction_GET_SELF(f.ptr());
  if (!self || !py::isinstance<py::capsule>(self)) return nullptr;
  auto cap = py::reinterpret_borrow<py::capsule>(self);
  if (!py::detail::is_function_record_capsule(cap)) return nullptr;
  return cap.get_pointer<py::detail::function_record>();
}

inline void refuse_none_self(py::handle f) {
  for (auto* rec = record_of(f); rec; rec = rec->next) {
    if (!rec->is_method || !rec->args.empty() || rec->nargs == 0 || rec->has_args ||
        rec->has_kwargs)
      continue;
    // pybind11 frees the names of a function's argument records with the function, as it
    // does for the copies it makes of annotated names.
    rec->args.emplace_back(strdup("self"), nullptr, py::handle(), /*convert=*/true,
                           /*none=*/false);
    for (size_t i = 1; i < rec->nargs; ++i)
      rec->args.emplace_back(nullptr, nullptr, py::handle(), /*convert=*/true, /*none=*/true);
  }
}

}  // namespace method_self_detail

// Applies the check to the methods and property accessors of every class bound in `m`.
inline void require_self_not_none(pybind11::module_& m) {
  namespace py = pybind11;
  using method_self_detail::refuse_none_self;
  const py::object property = py::module_::import("builtins").attr("property");
  for (auto item : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    py::handle cls = item.second;
    if (!PyType_Check(cls.ptr())) continue;
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (!py::detail::get_type_info(type)) continue;
    // tp_dict, not __dict__ (a read-only mappingproxy).
    for (auto member : py::reinterpret_borrow<py::dict>(type->tp_dict)) {
      py::handle v = member.second;
      if (py::isinstance(v, property)) {
        for (const char* accessor : {"fget", "fset"}) refuse_none_self(v.attr(accessor));
      } else {
        refuse_none_self(v);
      }
    }
  }
}

}  // namespace nardy::py_bind
