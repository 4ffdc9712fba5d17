// Small Tile IR modules that together use every op of the op table (and the attribute variants the
// printer and the bytecode writer must get right). Shared by the printer golden tests and the
// printer-vs-tileirdisasm tests; each module is a single entry @k ending in `return`.
#pragma once

#include <cctype>
#include <functional>
#include <ostream>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "cutile/ir/builder.hpp"
#include "cutile/ir/float_format.hpp"
#include "cutile/ir/printer.hpp"

namespace cutile::test_support {

struct OpModule {
  std::string name;     ///< also the golden file stem
  ir::Version version;  ///< the oldest bytecode version that can express it
  std::function<void(ir::Module&)> build;
};

inline void PrintTo(const OpModule& m, std::ostream* os) { *os << m.name; }

namespace op_modules_detail {

using namespace cutile::ir;
using Body = std::function<void(Builder&, Function&)>;

inline NamedAttribute attr(std::string name, Attribute value) {
  return {std::move(name), std::move(value)};
}
inline Attribute rounding(RoundingMode m) {
  return Attribute::enum_of(EnumKind::rounding, m);
}
inline Attribute overflow(IntegerOverflow o) {
  return Attribute::enum_of(EnumKind::overflow, o);
}
inline Attribute signedness(Signedness s) {
  return Attribute::enum_of(EnumKind::signedness, s);
}
inline Attribute ordering(MemoryOrdering o) {
  return Attribute::enum_of(EnumKind::memory_ordering, o);
}
inline Attribute scope(MemoryScope s) {
  return Attribute::enum_of(EnumKind::memory_scope, s);
}
inline Attribute mode(AtomicRmwMode m) {
  return Attribute::enum_of(EnumKind::atomic_mode, m);
}
inline Attribute f32(double v) {
  return Attribute::floating(Type::element(ElementType::f32), v);
}
inline Attribute hints(std::string arch, std::vector<std::pair<std::string, Attribute>> values) {
  return Attribute::optimization_hints({{std::move(arch), Attribute::dictionary(std::move(values))}});
}

inline OpModule kernel(std::string name, Version version, std::vector<Type> params, Body body) {
  return {name, version, [params, body](Module& m) {
            Function& f = m.add_function("k", params);
            Builder b(f.entry_block());
            body(b, f);
            b.return_();
          }};
}

inline Value* f32_tile(Builder& b, double v = 1.5) {
  return b.constant_float(ElementType::f32, v, {4});
}
inline Value* i32_tile(Builder& b, int64_t v = 3) {
  return b.constant_int(ElementType::i32, v, {4});
}
inline Value* i32_scalar(Builder& b, int64_t v = 0) {
  return b.constant_int(ElementType::i32, v);
}

// tensor_view<?x64xf32, strides=[64,1]> over parameter 0 with extent parameter 1.
inline Value* tensor_view_2d(Builder& b, Function& f) {
  Type tv = Type::tensor_view(Type::element(ElementType::f32), {kDynamic, 64}, {64, 1});
  return b.make_tensor_view(f.parameter(0), tv, {f.parameter(1)}, {});
}

inline std::vector<Type> ptr_and_extent() {
  return {pointer_type(ElementType::f32), scalar_type(ElementType::i32)};
}

// tile<8xptr<f32>>: parameter 0 offset by 0..7.
inline Value* pointer_tile(Builder& b, Function& f) {
  Value* p = b.broadcast(b.reshape(f.parameter(0), {1}), {8});
  return b.offset(p, b.iota(8));
}

inline std::vector<OpModule> build_all() {
  using O = Opcode;
  std::vector<OpModule> out;
  const Version v31 = v13_1, v32 = v13_2, v33 = v13_3, v34 = v13_4, v35 = v13_5;

  // Float unary ops, default attributes.
  for (auto [op, name] : std::vector<std::pair<Opcode, const char*>>{{O::absf, "absf"},
                                                                     {O::ceil, "ceil"},
                                                                     {O::cos, "cos"},
                                                                     {O::cosh, "cosh"},
                                                                     {O::exp, "exp"},
                                                                     {O::exp2, "exp2"},
                                                                     {O::floor, "floor"},
                                                                     {O::log, "log"},
                                                                     {O::log2, "log2"},
                                                                     {O::negf, "negf"},
                                                                     {O::rsqrt, "rsqrt"},
                                                                     {O::sin, "sin"},
                                                                     {O::sinh, "sinh"},
                                                                     {O::sqrt, "sqrt"},
                                                                     {O::tan, "tan"},
                                                                     {O::tanh, "tanh"}})
    out.push_back(kernel(name, v31, {}, [op = op](Builder& b, Function&) { b.unary(op, f32_tile(b)); }));
  out.push_back(kernel("float_unary_attrs", v33, {}, [](Builder& b, Function&) {
    Value* x = f32_tile(b);
    b.unary(O::exp, x, {attr("rounding_mode", rounding(RoundingMode::approx))});
    b.unary(O::tanh, x, {attr("rounding_mode", rounding(RoundingMode::approx))});
    b.unary(
        O::sqrt, x,
        {attr("rounding_mode", rounding(RoundingMode::approx)), attr("flush_to_zero", Attribute::unit())});
    b.unary(O::exp2, x, {attr("flush_to_zero", Attribute::unit())});
    b.unary(O::rsqrt, x, {attr("flush_to_zero", Attribute::unit())});
  }));
  out.push_back(kernel("absi", v31, {}, [](Builder& b, Function&) { b.unary(O::absi, i32_tile(b)); }));
  out.push_back(kernel("negi", v32, {}, [](Builder& b, Function&) {
    Value* x = i32_tile(b);
    b.unary(O::negi, x);
    b.unary(O::negi, x, {attr("overflow", overflow(IntegerOverflow::no_signed_wrap))});
  }));

  // Float binary ops.
  for (auto [op, name, since] :
       std::vector<std::tuple<Opcode, const char*, Version>>{{O::addf, "addf", v31},
                                                             {O::subf, "subf", v31},
                                                             {O::mulf, "mulf", v31},
                                                             {O::divf, "divf", v31},
                                                             {O::remf, "remf", v31},
                                                             {O::atan2, "atan2", v32},
                                                             {O::pow, "pow", v31},
                                                             {O::maxf, "maxf", v31},
                                                             {O::minf, "minf", v31}})
    out.push_back(kernel(name, since, {}, [op = op](Builder& b, Function&) {
      Value* x = f32_tile(b);
      b.binary(op, x, b.unary(O::negf, x));
    }));
  out.push_back(kernel("float_binary_attrs", v31, {}, [](Builder& b, Function&) {
    Value* x = f32_tile(b);
    b.binary(O::addf, x, x,
             {attr("rounding_mode", rounding(RoundingMode::zero)), attr("flush_to_zero", Attribute::unit())});
    b.binary(O::subf, x, x, {attr("rounding_mode", rounding(RoundingMode::negative_inf))});
    b.binary(O::mulf, x, x, {attr("rounding_mode", rounding(RoundingMode::positive_inf))});
    b.binary(
        O::divf, x, x,
        {attr("rounding_mode", rounding(RoundingMode::approx)), attr("flush_to_zero", Attribute::unit())});
    b.binary(O::maxf, x, x,
             {attr("propagate_nan", Attribute::unit()), attr("flush_to_zero", Attribute::unit())});
    b.binary(O::minf, x, x, {attr("propagate_nan", Attribute::unit())});
  }));
  out.push_back(kernel("fma", v31, {}, [](Builder& b, Function&) {
    Value* x = f32_tile(b);
    b.fma(x, x, x);
    b.create_value(
        O::fma, x->type(), {x, x, x},
        {attr("rounding_mode", rounding(RoundingMode::zero)), attr("flush_to_zero", Attribute::unit())});
  }));

  // Integer binary ops.
  for (auto [op, name] : std::vector<std::pair<Opcode, const char*>>{{O::addi, "addi"},
                                                                     {O::subi, "subi"},
                                                                     {O::muli, "muli"},
                                                                     {O::shli, "shli"},
                                                                     {O::andi, "andi"},
                                                                     {O::ori, "ori"},
                                                                     {O::xori, "xori"},
                                                                     {O::mulhii, "mulhii"}})
    out.push_back(kernel(name, v31, {}, [op = op](Builder& b, Function&) {
      Value* x = i32_tile(b);
      b.binary(op, x, i32_tile(b, 5));
    }));
  out.push_back(kernel("integer_overflow", v31, {}, [](Builder& b, Function&) {
    Value* x = i32_tile(b);
    b.binary(O::addi, x, x, {attr("overflow", overflow(IntegerOverflow::no_signed_wrap))});
    b.binary(O::subi, x, x, {attr("overflow", overflow(IntegerOverflow::no_unsigned_wrap))});
    b.binary(O::muli, x, x, {attr("overflow", overflow(IntegerOverflow::no_wrap))});
    b.binary(O::shli, x, x, {attr("overflow", overflow(IntegerOverflow::no_wrap))});
  }));
  out.push_back(kernel("integer_signedness", v31, {}, [](Builder& b, Function&) {
    Value* x = i32_tile(b);
    for (Signedness s : {Signedness::signed_, Signedness::unsigned_})
      for (Opcode op : {O::maxi, O::mini, O::remi, O::shri})
        b.binary(op, x, x, {attr("signedness", signedness(s))});
    b.binary(O::divi, x, x, {attr("signedness", signedness(Signedness::signed_))});
    b.binary(O::divi, x, x,
             {attr("signedness", signedness(Signedness::unsigned_)),
              attr("rounding", rounding(RoundingMode::positive_inf))});
    b.binary(O::divi, x, x,
             {attr("signedness", signedness(Signedness::signed_)),
              attr("rounding", rounding(RoundingMode::negative_inf))});
  }));

  // Comparisons and select.
  out.push_back(kernel("cmpf", v31, {}, [](Builder& b, Function&) {
    Value* x = f32_tile(b);
    for (int p = 0; p < 6; ++p)
      for (auto o : {ComparisonOrdering::ordered, ComparisonOrdering::unordered})
        b.cmpf(static_cast<ComparisonPredicate>(p), x, x, o);
  }));
  out.push_back(kernel("cmpi", v31, {}, [](Builder& b, Function&) {
    Value* x = i32_tile(b);
    for (int p = 0; p < 6; ++p)
      for (auto s : {Signedness::signed_, Signedness::unsigned_})
        b.cmpi(static_cast<ComparisonPredicate>(p), x, x, s);
  }));
  out.push_back(kernel("select", v31, {}, [](Builder& b, Function&) {
    Value* x = f32_tile(b);
    b.select(b.cmpf(ComparisonPredicate::less_than, x, x), x, x);
  }));

  // Conversions.
  out.push_back(kernel("conversions", v31, {}, [](Builder& b, Function&) {
    Value* x = f32_tile(b);
    Value* i = b.ftoi(x, ElementType::i32);
    b.ftoi(x, ElementType::i16, Signedness::unsigned_);
    b.itof(i, ElementType::f16);
    b.itof(i, ElementType::f32, Signedness::unsigned_);
    b.exti(i, ElementType::i64);
    b.exti(b.trunci(i, ElementType::i8), ElementType::i32, Signedness::unsigned_);
    b.create_value(O::trunci, tile_type({4}, ElementType::i16), {i},
                   {attr("overflow", overflow(IntegerOverflow::no_wrap))});
    b.ftof(x, ElementType::f16);
    b.ftof(b.ftof(x, ElementType::bf16), ElementType::f32);
    b.create_value(O::bitcast, tile_type({4}, ElementType::i32), {x});
  }));
  out.push_back(
      kernel("pointer_conversions", v31, {pointer_type(ElementType::f32)}, [](Builder& b, Function& f) {
        Value* p = f.parameter(0);
        Value* as_int = b.create_value(O::ptr_to_int, scalar_type(ElementType::i64), {p});
        b.create_value(O::int_to_ptr, pointer_type(ElementType::f32), {as_int});
        b.create_value(O::ptr_to_ptr, pointer_type(ElementType::i32), {p});
      }));
  out.push_back(kernel("pack_unpack", v33, {}, [](Builder& b, Function&) {
    Value* packed = b.create_value(O::pack, tile_type({16}, ElementType::i8), {f32_tile(b)});
    b.create_value(O::unpack, tile_type({4}, ElementType::f32), {packed});
  }));

  // Shapes.
  out.push_back(kernel("shapes", v31, {}, [](Builder& b, Function&) {
    Value* x = b.constant_float(ElementType::f32, 2.0, {4, 8});
    Value* t = b.permute(x, {1, 0});
    Value* flat = b.reshape(t, {32});
    Value* row = b.reshape(flat, {1, 32});
    b.broadcast(row, {2, 32});
    Value* c =
        b.create_value(O::cat, tile_type({8, 8}, ElementType::f32), {x, x}, {attr("dim", Attribute::i64(0))});
    b.create(O::extract, {tile_type({4, 4}, ElementType::f32)}, {{c}, {i32_scalar(b, 1), i32_scalar(b, 0)}});
    b.iota(16);
    b.iota(8, ElementType::i64);
  }));

  // Constants of every spelling.
  out.push_back(kernel("constants", v31, {}, [](Builder& b, Function&) {
    b.constant_int(ElementType::i32, 42);
    b.constant_int(ElementType::i32, -7, {4});
    b.constant_int(ElementType::i64, 1, {8});
    b.constant_int(ElementType::i16, 0);
    b.constant_int(ElementType::i8, 255);
    b.constant_int(ElementType::i1, 1, {4});
    b.constant_int(ElementType::i1, 0);
    b.constant_float(ElementType::f32, 0.0);
    b.constant_float(ElementType::f32, -0.0);
    b.constant_float(ElementType::f32, 1.0);
    b.constant_float(ElementType::f32, -2.5, {2});
    b.constant_float(ElementType::f32, 0.1);
    b.constant_float(ElementType::f32, 3.14159265358979);
    b.constant_float(ElementType::f32, 1e-10);
    b.constant_float(ElementType::f32, 123456789.0);
    b.constant_float(ElementType::f32, -std::numeric_limits<double>::infinity());
    b.constant_float(ElementType::f32, std::numeric_limits<double>::quiet_NaN());
    b.constant_float(ElementType::f64, 0.1);
    b.constant_float(ElementType::f16, 0.1);
    b.constant_float(ElementType::bf16, 3.0);
    b.constant_float(ElementType::f16, 65504.0);
    std::vector<uint8_t> raw;
    for (float v : {1.0f, 2.0f, 4.0f, 5.5f}) {
      const uint32_t bits = static_cast<uint32_t>(float_to_bits(ElementType::f32, v));
      for (int i = 0; i < 4; ++i) raw.push_back(static_cast<uint8_t>(bits >> (8 * i)));
    }
    b.constant(Attribute::dense(tile_type({2, 2}, ElementType::f32), raw));
    b.constant(Attribute::dense(tile_type({4}, ElementType::i8), {1, 2, 0xFE, 4}));
    b.constant(Attribute::dense(tile_type({8}, ElementType::i1), {0x35}));
  }));

  // Assume predicates, grid queries, tokens.
  out.push_back(kernel("assume", v31, {pointer_type(ElementType::f32), scalar_type(ElementType::i32)},
                       [](Builder& b, Function& f) {
                         b.assume(f.parameter(0), Attribute::div_by(16));
                         b.assume(f.parameter(1), Attribute::bounded(0, std::nullopt));
                         b.assume(f.parameter(1), Attribute::bounded(-4, 100));
                         Value* x = b.constant_int(ElementType::i32, 8, {4, 8});
                         b.assume(x, Attribute::div_by(4, 2, 1));
                         b.assume(x, Attribute::same_elements({1, 4}));
                         b.assume(b.reshape(f.parameter(1), {1}), Attribute::bounded(std::nullopt, 7));
                       }));
  out.push_back(kernel("grid", v31, {}, [](Builder& b, Function&) {
    auto id = b.tile_block_id();
    auto n = b.num_tile_blocks();
    b.binary(O::addi, id[0], n[2]);
  }));
  out.push_back(kernel("tokens", v31, {}, [](Builder& b, Function&) {
    Value* t0 = b.make_token();
    Value* t1 = b.make_token();
    b.join_tokens({t0, t1, t0});
  }));

  // Views.
  out.push_back(kernel("views", v31, ptr_and_extent(), [](Builder& b, Function& f) {
    Value* tv = tensor_view_2d(b, f);
    Value* pv = b.make_partition_view(tv, {16, 64});
    Value* padded = b.make_partition_view(tv, {16, 64}, PaddingValue::neg_inf);
    Value* i = i32_scalar(b);
    auto [t, tok] = b.load_view(pv, {i, i});
    auto [t2, tok2] = b.load_view(
        padded, {i, i}, tok, MemoryOrdering::relaxed, MemoryScope::device,
        hints("sm_90", {{"latency", Attribute::i32(3)}, {"allow_tma", Attribute::boolean(false)}}));
    b.store_view(b.binary(O::addf, t, t2), pv, {i, i}, tok2);
    b.store_view(t, pv, {i, i}, nullptr, MemoryOrdering::release, MemoryScope::tl_blk);
    b.create(O::get_tensor_shape, {scalar_type(ElementType::i32), scalar_type(ElementType::i32)}, {{tv}});
    b.create(O::get_index_space_shape, {scalar_type(ElementType::i64), scalar_type(ElementType::i64)},
             {{pv}});
  }));
  out.push_back(kernel("static_views", v31, {pointer_type(ElementType::f16)}, [](Builder& b, Function& f) {
    Type tv_type = Type::tensor_view(Type::element(ElementType::f16), {128, 64}, {1, 128});
    Value* tv = b.make_tensor_view(f.parameter(0), tv_type, {}, {});
    Value* pv = b.make_partition_view(tv, {64, 32}, PaddingValue::zero, {1, 0});
    Value* i = i32_scalar(b);
    b.load_view(pv, {i, b.constant_int(ElementType::i32, 1)});
  }));
  out.push_back(kernel("strided_gather_views", v33, ptr_and_extent(), [](Builder& b, Function& f) {
    Value* tv = tensor_view_2d(b, f);
    Type sv_type = Type::strided_view({16, 64}, {2, 1}, tv->type(), {}, PaddingValue::zero);
    Value* sv = b.create_value(O::make_strided_view, sv_type, {tv});
    Type gv_type = Type::gather_scatter_view({16, 64}, tv->type(), 0, PaddingValue::nan);
    Value* gv = b.create_value(O::make_gather_scatter_view, gv_type, {tv});
    Value* i = i32_scalar(b);
    auto [t, tok] = b.load_view(sv, {i, i});
    auto [g, tok2] = b.load_view(gv, {b.iota(16), i}, tok);
    b.store_view(g, sv, {i, i}, tok2);
  }));
  out.push_back(kernel(
      "atomic_red_view", v33, {pointer_type(ElementType::f32), scalar_type(ElementType::i32)},
      [](Builder& b, Function& f) {
        Value* tv = tensor_view_2d(b, f);
        Value* pv = b.make_partition_view(tv, {16, 64});
        Value* i = i32_scalar(b);
        Value* v = b.constant_float(ElementType::f32, 1.0, {16, 64});
        Value* t = b.create(O::atomic_red_view_tko, {Type::token()}, {{pv}, {i, i}, {v}, {}},
                            {attr("memory_ordering_semantics", ordering(MemoryOrdering::relaxed)),
                             attr("memory_scope", scope(MemoryScope::device)),
                             attr("mode", mode(AtomicRmwMode::addf))})
                       .result(0);
        b.create(O::atomic_red_view_tko, {Type::token()}, {{pv}, {i, i}, {v}, {t}},
                 {attr("memory_ordering_semantics", ordering(MemoryOrdering::relaxed)),
                  attr("memory_scope", scope(MemoryScope::tl_blk)), attr("mode", mode(AtomicRmwMode::addf))});
      }));

  // Pointer tiles.
  out.push_back(kernel("pointers", v31, {pointer_type(ElementType::f32)}, [](Builder& b, Function& f) {
    Value* ptrs = pointer_tile(b, f);
    Value* mask = b.cmpi(ComparisonPredicate::less_than, b.iota(8), b.constant_int(ElementType::i32, 5, {8}));
    Value* pad = b.constant_float(ElementType::f32, 0.0, {8});
    auto [x, tok] = b.load_ptr(ptrs, mask, pad);
    auto [y, tok2] = b.load_ptr(ptrs, nullptr, nullptr, tok);
    Value* t3 = b.store_ptr(ptrs, b.binary(O::addf, x, y), mask, tok2);
    b.store_ptr(ptrs, x);
    b.create(O::load_ptr_tko, {tile_type({8}, ElementType::f32), Type::token()}, {{ptrs}, {}, {}, {t3}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::acquire)),
              attr("memory_scope", scope(MemoryScope::sys)),
              attr("optimization_hints", hints("sm_100", {{"latency", Attribute::i32(5)}}))});
    b.create(O::store_ptr_tko, {Type::token()}, {{ptrs}, {x}, {}, {}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::relaxed)),
              attr("memory_scope", scope(MemoryScope::device)),
              attr("optimization_hints", hints("sm_90", {{"latency", Attribute::i32(2)}}))});
  }));
  out.push_back(kernel("atomics", v31, {pointer_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* p = b.reshape(f.parameter(0), {1});
    Value* ptrs = b.offset(b.broadcast(p, {8}), b.iota(8));
    Value* v = b.constant_int(ElementType::i32, 1, {8});
    Value* mask = b.cmpi(ComparisonPredicate::less_than, b.iota(8), v);
    Operation& rmw =
        b.create(O::atomic_rmw_tko, {v->type(), Type::token()}, {{ptrs}, {v}, {}, {}},
                 {attr("memory_ordering_semantics", ordering(MemoryOrdering::relaxed)),
                  attr("memory_scope", scope(MemoryScope::device)), attr("mode", mode(AtomicRmwMode::add))});
    b.create(O::atomic_rmw_tko, {v->type(), Type::token()}, {{ptrs}, {v}, {mask}, {rmw.result(1)}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::acq_rel)),
              attr("memory_scope", scope(MemoryScope::sys)), attr("mode", mode(AtomicRmwMode::xchg))});
    b.create(O::atomic_cas_tko, {v->type(), Type::token()}, {{ptrs}, {v}, {v}, {}, {}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::acquire)),
              attr("memory_scope", scope(MemoryScope::tl_blk))});
    b.create(O::atomic_cas_tko, {v->type(), Type::token()}, {{ptrs}, {v}, {v}, {mask}, {rmw.result(1)}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::release)),
              attr("memory_scope", scope(MemoryScope::device))});
  }));

  // Matrix multiply.
  out.push_back(kernel("mmaf", v33, {}, [](Builder& b, Function&) {
    Value* a = b.constant_float(ElementType::f16, 1.0, {16, 16});
    Value* acc = b.constant_float(ElementType::f32, 0.0, {16, 16});
    b.mmaf(a, a, acc);
    Value* a8 = b.constant_float(ElementType::f8e4m3fn, 1.0, {16, 32});
    Value* b8 = b.constant_float(ElementType::f8e4m3fn, 1.0, {32, 16});
    b.create_value(O::mmaf, acc->type(), {a8, b8, acc}, {attr("fast_acc", Attribute::unit())});
  }));
  out.push_back(kernel("mmai", v31, {}, [](Builder& b, Function&) {
    Value* a = b.constant_int(ElementType::i8, 1, {16, 32});
    Value* acc = b.constant_int(ElementType::i32, 0, {16, 16});
    Value* rhs = b.constant_int(ElementType::i8, 2, {32, 16});
    b.create_value(O::mmai, acc->type(), {a, rhs, acc},
                   {attr("signedness_lhs", signedness(Signedness::signed_)),
                    attr("signedness_rhs", signedness(Signedness::unsigned_))});
  }));
  out.push_back(kernel("mmaf_scaled", v33, {}, [](Builder& b, Function&) {
    Value* a = b.constant_float(ElementType::f8e4m3fn, 1.0, {16, 64});
    Value* rhs = b.constant_float(ElementType::f8e4m3fn, 1.0, {64, 16});
    Value* acc = b.constant_float(ElementType::f32, 0.0, {16, 16});
    Value* sa = b.constant_float(ElementType::f8e8m0fnu, 1.0, {16, 2});
    Value* sb = b.constant_float(ElementType::f8e8m0fnu, 1.0, {2, 16});
    b.create_value(O::mmaf_scaled, acc->type(), {a, rhs, acc, sa, sb});
  }));

  // Debugging.
  out.push_back(kernel("print_assert", v32, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* x = f32_tile(b);
    Value* t = b.create(O::print_tko, {Type::token()}, {{f.parameter(0), x}, {}},
                        {attr("str", Attribute::string("n=%d x=%f \"q\" 100%% \\ tab\t\n"))})
                   .result(0);
    b.create(O::print_tko, {Type::token()}, {{}, {t}}, {attr("str", Attribute::string("no args"))});
    Value* c = b.cmpi(ComparisonPredicate::greater_than, f.parameter(0), i32_scalar(b));
    b.create(O::assert_, {}, {{c}}, {attr("message", Attribute::string("n must be > 0"))});
  }));

  // Memory: alloca and globals.
  out.push_back(kernel("alloca", v33, {}, [](Builder& b, Function&) {
    b.create(O::alloca, {pointer_type(ElementType::f32)}, {},
             {attr("num_elem", Attribute::i64(64)), attr("alignment", Attribute::i64(16))});
    b.create(O::alloca, {pointer_type(ElementType::i32)}, {},
             {attr("num_elem", Attribute::i64(8)), attr("alignment", Attribute::i64(4)),
              attr("global", Attribute::unit())});
  }));
  out.push_back({"globals", v33, [](Module& m) {
                   m.add_global({"g_public",
                                 Attribute::dense(tile_type({4}, ElementType::f32), {0, 0, 0x80, 0x3F}), 0});
                   m.add_global({"g_private",
                                 Attribute::dense(tile_type({2}, ElementType::i32), {1, 0, 0, 0, 2, 0, 0, 0}),
                                 128, true, true});
                   Function& f = m.add_function("k", {});
                   Builder b(f.entry_block());
                   b.create(O::get_global, {pointer_type(ElementType::f32)}, {},
                            {attr("name", Attribute::string("g_public"))});
                   b.create(O::get_global, {pointer_type(ElementType::i32)}, {},
                            {attr("name", Attribute::string("g_private"))});
                   b.return_();
                 }});

  // Control flow.
  out.push_back(kernel("for", v32, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* lb = i32_scalar(b, 0);
    Value* step = i32_scalar(b, 1);
    Value* init = f32_tile(b);
    auto r = b.for_loop(lb, f.parameter(0), step, {init, b.make_token()},
                        [](Builder& in, std::span<Value* const> a) {
                          return std::vector<Value*>{in.binary(O::addf, a[1], a[1]), a[2]};
                        });
    b.for_loop(lb, f.parameter(0), step, {}, [&](Builder& in, std::span<Value* const>) {
      in.binary(O::addf, r[0], r[0]);
      return std::vector<Value*>{};
    });
    Operation& unsigned_for = b.create(O::for_, {}, {{lb}, {f.parameter(0)}, {step}, {}},
                                       {attr("unsignedCmp", Attribute::unit())}, 1);
    Block& body = unsigned_for.region(0).add_block();
    body.add_argument(scalar_type(ElementType::i32));
    Builder in(body);
    in.continue_();
  }));
  out.push_back(kernel("loop", v31, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* zero = i32_scalar(b, 0);
    Value* x = f32_tile(b);
    Operation& loop = b.create(O::loop, {scalar_type(ElementType::i32), x->type()}, {{zero, x}}, {}, 1);
    Block& body = loop.region(0).add_block();
    Value* i = body.add_argument(zero->type());
    Value* acc = body.add_argument(x->type());
    Builder in(body);
    Value* done = in.cmpi(ComparisonPredicate::greater_than_or_equal, i, f.parameter(0));
    Operation& branch = in.create(O::if_, {}, {{done}}, {}, 2);
    Builder then_b(branch.region(0).add_block());
    then_b.create(O::break_, {}, {{i, acc}});
    Builder else_b(branch.region(1).add_block());
    else_b.yield();
    Value* next = in.binary(O::addi, i, in.constant_int(ElementType::i32, 1));
    in.continue_({next, in.binary(O::addf, acc, acc)});
    // A loop without iteration values or results.
    Operation& bare = b.create(O::loop, {}, {{}}, {}, 1);
    Builder bare_b(bare.region(0).add_block());
    bare_b.create(O::break_, {}, {{}});
  }));
  out.push_back(kernel("if", v31, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* c = b.cmpi(ComparisonPredicate::equal, f.parameter(0), i32_scalar(b));
    Value* x = f32_tile(b);
    auto r = b.if_else(
        c, {x->type(), x->type()},
        [&](Builder& in, std::span<Value* const>) {
          return std::vector<Value*>{in.unary(O::negf, x), x};
        },
        [&](Builder& in, std::span<Value* const>) {
          return std::vector<Value*>{x, in.unary(O::absf, x)};
        });
    b.if_else(c, {}, [&](Builder& in, std::span<Value* const>) {
      in.binary(O::addf, r[0], r[1]);
      return std::vector<Value*>{};
    });
  }));
  out.push_back(kernel("reduce_scan", v31, {}, [](Builder& b, Function&) {
    Value* x = b.constant_float(ElementType::f32, 1.0, {8, 4});
    Value* y = b.constant_int(ElementType::i32, 1, {8, 4});
    b.reduce({x}, 1, {f32(0.0)}, [](Builder& in, std::span<Value* const> a) {
      return std::vector<Value*>{in.binary(O::addf, a[0], a[1])};
    });
    b.reduce({x, y}, 0, {f32(-std::numeric_limits<double>::infinity()), Attribute::i32(0)},
             [](Builder& in, std::span<Value* const> a) {
               return std::vector<Value*>{in.binary(O::maxf, a[0], a[1]), in.binary(O::addi, a[2], a[3])};
             });
    b.scan({x}, 0, false, {f32(1.0)}, [](Builder& in, std::span<Value* const> a) {
      return std::vector<Value*>{in.binary(O::mulf, a[0], a[1])};
    });
    b.scan({y}, 1, true, {Attribute::i32(0)}, [](Builder& in, std::span<Value* const> a) {
      return std::vector<Value*>{in.binary(O::addi, a[0], a[1])};
    });
  }));

  // Names in nested regions: siblings reuse numbers, nested names are uniqued against their parents.
  out.push_back(kernel("nested_regions", v32, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* zero = i32_scalar(b, 0);
    Value* one = i32_scalar(b, 1);
    Value* x = b.reshape(f32_tile(b), {1, 4});
    auto sums = b.for_loop(zero, f.parameter(0), one, {x}, [&](Builder& in, std::span<Value* const> a) {
      Value* c = in.cmpi(ComparisonPredicate::less_than, a[0], one);
      auto picked = in.if_else(
          c, {x->type()},
          [&](Builder& t, std::span<Value* const>) {
            return std::vector<Value*>{t.reshape(t.reshape(a[1], {4}), {1, 4})};
          },
          [&](Builder& e, std::span<Value* const>) {
            e.broadcast(e.reshape(a[1], {4, 1}), {4, 1});
            return std::vector<Value*>{a[1]};
          });
      auto r = in.reduce({picked[0]}, 1, {f32(0.0)}, [](Builder& body, std::span<Value* const> args) {
        return std::vector<Value*>{body.binary(O::addf, args[0], args[1])};
      });
      return std::vector<Value*>{in.broadcast(in.reshape(r[0], {1, 1}), {1, 4})};
    });
    b.reduce({sums[0]}, 1, {f32(0.0)}, [](Builder& body, std::span<Value* const> args) {
      return std::vector<Value*>{body.binary(O::maxf, args[0], args[1])};
    });
  }));

  // Entry hints.
  out.push_back(
      {"entry_hints", v33, [](Module& m) {
         Function& f =
             m.add_function("hinted", {pointer_type(ElementType::f32), scalar_type(ElementType::i32)});
         f.set_hints(Attribute::optimization_hints(
             {{"sm_90", Attribute::dictionary(
                            {{"occupancy", Attribute::i32(2)}, {"num_cta_in_cga", Attribute::i32(2)}})},
              {"default", Attribute::dictionary({{"num_worker_warps_per_cta", Attribute::i32(4)}})}}));
         Builder(f.entry_block()).return_();
       }});

  // 13.4 additions.
  out.push_back(kernel("ops_13_4", v34, {}, [](Builder& b, Function&) {
    Value* x = f32_tile(b);
    b.create_value(O::fpowi, x->type(), {x, i32_tile(b, 2)});
    Value* dst = b.constant_float(ElementType::f32, 0.0, {8});
    b.create(O::insert, {dst->type()}, {{x}, {dst}, {i32_scalar(b, 1)}});
    Value* t = b.create(O::gdc_wait_tko, {Type::token()}, {{}}).result(0);
    Value* t2 = b.create(O::gdc_launch_dependents_tko, {Type::token()}, {{t}}).result(0);
    b.create(O::memory_fence_alias_tko, {Type::token()}, {{t2}});
    b.create_value(
        O::ftoi, tile_type({4}, ElementType::i32), {x},
        {attr("saturating", Attribute::unit()), attr("signedness", signedness(Signedness::signed_))});
  }));
  out.push_back(kernel("inbounds_13_4", v34, ptr_and_extent(), [](Builder& b, Function& f) {
    Value* pv = b.make_partition_view(tensor_view_2d(b, f), {16, 64});
    Value* i = i32_scalar(b);
    Operation& load =
        b.create(O::load_view_tko, {pv->type().view_tile_type(), Type::token()}, {{pv}, {i, i}, {}},
                 {attr("memory_ordering_semantics", ordering(MemoryOrdering::weak)),
                  attr("inbounds", Attribute::bool_array({true, false}))});
    b.create(O::store_view_tko, {Type::token()}, {{load.result(0)}, {pv}, {i, i}, {}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::weak)),
              attr("inbounds", Attribute::bool_array({true, true}))});
  }));
  // 13.5 additions: the multimem view ops over multicast pointers (parameter 0: f32, parameter 1: i32).
  auto multicast = [](ElementType e) { return Type::tile({}, Type::pointer(Type::element(e), PtrAttr::multicast)); };
  out.push_back(kernel("multimem_13_5", v35, {multicast(ElementType::f32), multicast(ElementType::i32)},
                       [](Builder& b, Function& f) {
    auto view = [&](size_t param, ElementType e) {
      const Type tv = Type::tensor_view(Type::element(e), {128}, {1}, PtrAttr::multicast);
      return b.make_partition_view(b.make_tensor_view(f.parameter(param), tv, {}, {}), {64});
    };
    Value* pf = view(0, ElementType::f32);
    Value* pi = view(1, ElementType::i32);
    Value* i = i32_scalar(b, 1);
    Operation& load = b.create(O::multimem_load_reduce_view_tko, {pf->type().view_tile_type(), Type::token()},
                               {{pf}, {i}, {}},
                               {attr("memory_ordering_semantics", ordering(MemoryOrdering::relaxed)),
                                attr("memory_scope", scope(MemoryScope::device))});
    Value* t = b.create(O::multimem_reduce_view_tko, {Type::token()}, {{pf}, {load.result(0)}, {i}, {load.result(1)}},
                        {attr("memory_ordering_semantics", ordering(MemoryOrdering::release)),
                         attr("memory_scope", scope(MemoryScope::sys))})
                   .result(0);
    b.create(O::multimem_store_view_tko, {Type::token()}, {{pf}, {load.result(0)}, {i}, {t}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::weak)),
              attr("inbounds", Attribute::bool_array({true}))});
    Operation& imin = b.create(O::multimem_load_reduce_view_tko, {pi->type().view_tile_type(), Type::token()},
                               {{pi}, {i}, {}},
                               {attr("memory_ordering_semantics", ordering(MemoryOrdering::acquire)),
                                attr("memory_scope", scope(MemoryScope::sys)),
                                attr("reduction", Attribute::enum_of(EnumKind::multimem_reduction,
                                                                     MultimemReduction::umax))});
    b.create(O::multimem_reduce_view_tko, {Type::token()}, {{pi}, {imin.result(0)}, {i}, {}},
             {attr("memory_ordering_semantics", ordering(MemoryOrdering::relaxed)),
              attr("memory_scope", scope(MemoryScope::device)),
              attr("reduction", Attribute::enum_of(EnumKind::multimem_reduction, MultimemReduction::xor_))});
  }));
  return out;
}

}  // namespace op_modules_detail

/// Every per-op module, in a fixed order.
inline const std::vector<OpModule>& op_modules() {
  static const std::vector<OpModule> modules = op_modules_detail::build_all();
  return modules;
}

inline ir::Module build_module(const OpModule& m) {
  ir::Module module("kernels");
  m.build(module);
  return module;
}

/// What tileirdisasm prints for a module: its globals, then its entries, one after another.
inline std::string disassembly_form(const ir::Module& module) {
  std::string out;
  for (const ir::Global& g : module.globals()) out += ir::print_global(g) + "\n";
  for (const auto& f : module.functions()) out += ir::print_function(*f) + "\n";
  return out;
}

/// Text with SSA names renamed %0, %1, ... in order of first appearance (keeping `#N` result
/// indices) and every run of whitespace collapsed to one space, so printers that choose names or
/// spacing differently still compare equal.
inline std::string normalize_ir_text(const std::string& text) {
  std::map<std::string, std::string> renamed;
  std::string out;
  bool in_space = false;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      in_space = true;
      ++i;
      continue;
    }
    if (in_space && !out.empty()) out += ' ';
    in_space = false;
    if (c == '%') {
      size_t j = i + 1;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_' ||
                                 text[j] == '$' || text[j] == '.' || text[j] == '-'))
        ++j;
      const std::string name = text.substr(i, j - i);
      auto it = renamed.emplace(name, "%" + std::to_string(renamed.size())).first;
      out += it->second;
      i = j;
      continue;
    }
    if (c == '"') {  // strings are kept verbatim (a '%' in a format string is not a value)
      const size_t end = text.find('"', i + 1);
      const size_t stop = end == std::string::npos ? text.size() : end + 1;
      out += text.substr(i, stop - i);
      i = stop;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace cutile::test_support
