// Shape ops, control flow with loop-carried values, reduce and scan on every evaluation path, and mma.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/pointer_io.hpp"

namespace {

using namespace cutile;
using test_support::expect_close;
using test_support::HostTensor;
using test_support::run_pointer_kernel;
using E = ir::ElementType;
using O = ir::Opcode;
using Values = std::vector<double>;

std::vector<ir::Value*> sum_body(ir::Builder& b, std::span<ir::Value* const> a) { return {b.binary(O::addf, a[0], a[1])}; }

HostTensor iota_tensor(E e, std::vector<int64_t> shape, double scale = 1) {
  HostTensor t(e, std::move(shape));
  for (size_t k = 0; k < t.size(); ++k) t.set(k, static_cast<double>(k) * scale);
  return t;
}

TEST(Shapes, BroadcastReshapePermute) {
  HostTensor x = iota_tensor(E::f32, {2, 4});
  HostTensor out(E::f32, {4, 2}, false);
  run_pointer_kernel({&x}, out, [](ir::Builder& b, std::span<ir::Value* const> in) { return b.permute(in[0], {1, 0}); });
  EXPECT_EQ(out.values(), (Values{0, 4, 1, 5, 2, 6, 3, 7}));
  HostTensor row = iota_tensor(E::i32, {4}), grid(E::i32, {2, 4}, false), col(E::i32, {4, 2}, false);
  run_pointer_kernel({&row}, grid, [](ir::Builder& b, std::span<ir::Value* const> in) {
    return b.broadcast(b.reshape(in[0], {1, 4}), {2, 4});
  });
  EXPECT_EQ(grid.values(), (Values{0, 1, 2, 3, 0, 1, 2, 3}));
  run_pointer_kernel({&row}, col, [](ir::Builder& b, std::span<ir::Value* const> in) {
    return b.broadcast(b.reshape(in[0], {4, 1}), {4, 2});
  });
  EXPECT_EQ(col.values(), (Values{0, 0, 1, 1, 2, 2, 3, 3}));
}

TEST(Shapes, CatExtractInsert) {
  HostTensor x = iota_tensor(E::f32, {2, 4});
  HostTensor out(E::f32, {2, 4}, false);
  run_pointer_kernel({&x}, out, [](ir::Builder& b, std::span<ir::Value* const> in) {
    ir::Value* twice = b.binary(O::addf, in[0], in[0]);
    ir::Value* c = b.create_value(O::cat, ir::tile_type({2, 8}, E::f32), {in[0], twice}, {{"dim", ir::Attribute::i64(1)}});
    // The 2x4 sub-tile at (0, 1) of the 2x8 cat is `twice`.
    return b.create(O::extract, {ir::tile_type({2, 4}, E::f32)}, {{c}, {b.constant_int(E::i32, 0), b.constant_int(E::i32, 1)}})
        .result(0);
  });
  EXPECT_EQ(out.values(), (Values{0, 2, 4, 6, 8, 10, 12, 14}));
  HostTensor dst(E::f32, {4}, false);
  HostTensor four = iota_tensor(E::f32, {4}, 10);
  run_pointer_kernel({&four}, dst, [](ir::Builder& b, std::span<ir::Value* const> in) {
    ir::Value* zeros = b.constant_float(E::f32, -1, {8});
    ir::Value* put = b.create(O::insert, {ir::tile_type({8}, E::f32)}, {{in[0]}, {zeros}, {b.constant_int(E::i32, 1)}}).result(0);
    return b.create(O::extract, {ir::tile_type({4}, E::f32)}, {{put}, {b.constant_int(E::i32, 1)}}).result(0);
  });
  EXPECT_EQ(dst.values(), (Values{0, 10, 20, 30}));
}

TEST(Shapes, ConstantsIotaPackUnpack) {
  HostTensor x = iota_tensor(E::f32, {4}, 0.5), out(E::f32, {4}, false);
  run_pointer_kernel({&x}, out, {4}, [](ir::Builder& b, std::span<ir::Value* const> in) {
    ir::Value* bytes = b.create_value(O::pack, ir::tile_type({16}, E::i8), {in[0]});
    return b.create_value(O::unpack, ir::tile_type({4}, E::f32), {bytes});
  });
  EXPECT_EQ(out.values(), x.values());
  HostTensor packed(E::i8, {16}, false);
  run_pointer_kernel({&x}, packed, [](ir::Builder& b, std::span<ir::Value* const> in) {
    return b.create_value(O::pack, ir::tile_type({16}, E::i8), {in[0]});
  });
  EXPECT_EQ(packed.bits(7), 0x3Fu) << "0.5f = 0x3F000000, little-endian";
  HostTensor mixed(E::i32, {8}, false);
  HostTensor dummy(E::i32, {8});
  run_pointer_kernel({&dummy}, mixed, {8}, [](ir::Builder& b, std::span<ir::Value* const>) {
    ir::Value* flags = b.constant(ir::Attribute::dense(ir::tile_type({8}, E::i1), {0x35}));
    ir::Value* wide = b.constant(ir::Attribute::dense(ir::tile_type({8}, E::i8), {1, 2, 0xFE, 4, 5, 6, 7, 0x80}));
    return b.binary(O::addi, b.exti(flags, E::i32, ir::Signedness::unsigned_), b.exti(wide, E::i32));
  });
  EXPECT_EQ(mixed.values(), (Values{2, 2, 0xFE - 256 + 1, 4, 6, 7, 7, -128}));
}

// ---- control flow

// Kernel k(out: ptr<f32>, n: i32) storing one tile computed by `body`.
std::vector<double> run_scalar_kernel(int64_t n, const std::vector<int64_t>& shape,
                                      const std::function<ir::Value*(ir::Builder&, ir::Value* n)>& body) {
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::f32), ir::scalar_type(E::i32)});
  ir::Builder b(f.entry_block());
  b.store_ptr(test_support::consecutive_pointers(b, f.parameter(0), shape), body(b, f.parameter(1)));
  b.return_();
  int64_t size = 1;
  for (int64_t d : shape) size *= d;
  HostTensor out(E::f32, {size}, false);
  interp::run(m, "k", std::vector<uint64_t>{out.address(), static_cast<uint64_t>(n)}, {1, 1, 1},
              std::vector<interp::MemoryRegion>{out.region("out")});
  return out.values();
}

TEST(ControlFlow, ForCarriesValues) {
  // acc = 1; for i in [2, n) step 3: acc = acc * 2 + i
  for (int64_t n : {0, 2, 3, 11}) {
    const auto got = run_scalar_kernel(n, {4}, [](ir::Builder& b, ir::Value* limit) {
      ir::Value* init = b.constant_float(E::f32, 1, {4});
      return b.for_loop(b.constant_int(E::i32, 2), limit, b.constant_int(E::i32, 3), {init},
                        [](ir::Builder& in, std::span<ir::Value* const> a) {
                          ir::Value* i = in.broadcast(in.reshape(in.itof(a[0], E::f32), {1}), {4});
                          return std::vector<ir::Value*>{in.binary(O::addf, in.binary(O::addf, a[1], a[1]), i)};
                        })[0];
    });
    double acc = 1;
    for (int64_t i = 2; i < n; i += 3) acc = acc * 2 + static_cast<double>(i);
    EXPECT_EQ(got, Values(4, acc)) << "n = " << n;
  }
}

TEST(ControlFlow, LoopBreaksAndIfYields) {
  // i = 0, s = 0; loop { if i >= n: break(s); s += (i odd ? i : -1); i += 1 }
  const auto got = run_scalar_kernel(6, {1}, [](ir::Builder& b, ir::Value* n) {
    ir::Value* zero = b.constant_int(E::i32, 0);
    ir::Value* s0 = b.constant_float(E::f32, 0);
    ir::Operation& loop = b.create(O::loop, {s0->type()}, {{zero, s0}}, {}, 1);
    ir::Block& body = loop.region(0).add_block();
    ir::Value* i = body.add_argument(zero->type());
    ir::Value* s = body.add_argument(s0->type());
    ir::Builder in(body);
    ir::Operation& exit = in.create(O::if_, {}, {{in.cmpi(ir::ComparisonPredicate::greater_than_or_equal, i, n)}}, {}, 2);
    ir::Builder(exit.region(0).add_block()).create(O::break_, {}, {{s}});
    ir::Value* odd = in.cmpi(ir::ComparisonPredicate::equal, in.binary(O::andi, i, in.constant_int(E::i32, 1)), in.constant_int(E::i32, 1));
    ir::Value* add = in.if_else(
        odd, {s0->type()}, [&](ir::Builder& t, std::span<ir::Value* const>) { return std::vector<ir::Value*>{t.itof(i, E::f32)}; },
        [&](ir::Builder& e, std::span<ir::Value* const>) { return std::vector<ir::Value*>{e.constant_float(E::f32, -1)}; })[0];
    in.continue_({in.binary(O::addi, i, in.constant_int(E::i32, 1)), in.binary(O::addf, s, add)});
    return b.reshape(loop.result(0), {1});
  });
  EXPECT_EQ(got, Values{1 + 3 + 5 - 3});
}

TEST(ControlFlow, ContinueFromIfInsideFor) {
  // for i in [0, 8): if i < 3 { continue(acc) } ; acc += i
  const auto got = run_scalar_kernel(8, {1}, [](ir::Builder& b, ir::Value* n) {
    ir::Value* init = b.constant_float(E::f32, 0, {1});
    return b.for_loop(b.constant_int(E::i32, 0), n, b.constant_int(E::i32, 1), {init},
                      [](ir::Builder& in, std::span<ir::Value* const> a) {
                        ir::Operation& skip = in.create(O::if_, {}, {{in.cmpi(ir::ComparisonPredicate::less_than, a[0], in.constant_int(E::i32, 3))}}, {}, 2);
                        ir::Builder(skip.region(0).add_block()).continue_({a[1]});
                        return std::vector<ir::Value*>{in.binary(O::addf, a[1], in.reshape(in.itof(a[0], E::f32), {1}))};
                      })[0];
  });
  EXPECT_EQ(got, Values{3 + 4 + 5 + 6 + 7});
}

// ---- reduce and scan

// dim 0 and dim 1 of a 4x8 tile: sums (fast path), sums through a two-op body (slice path), and a body
// with a reshape (element path), all against the same reference.
TEST(Aggregates, ReduceEveryPath) {
  std::mt19937 rng(41);
  HostTensor x(E::f32, {4, 8});
  x.fill_random(rng, -2, 2);
  const Values xv = x.values();
  for (int64_t dim : {0, 1}) {
    Values want(dim == 0 ? 8 : 4, 0.0);
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t c = 0; c < 8; ++c) want[static_cast<size_t>(dim == 0 ? c : r)] += xv[static_cast<size_t>(r * 8 + c)] * 2;
    const std::vector<int64_t> result_shape = {dim == 0 ? 8 : 4};
    for (int path = 0; path < 3; ++path) {
      HostTensor out(E::f32, result_shape, false);
      run_pointer_kernel({&x}, out, [&](ir::Builder& b, std::span<ir::Value* const> in) {
        ir::Value* doubled = b.binary(O::addf, in[0], in[0]);
        auto id = ir::Attribute::floating(ir::Type::element(E::f32), 0.0);
        if (path == 0) return b.reduce({doubled}, dim, {id}, sum_body)[0];
        if (path == 1)
          return b.reduce({in[0]}, dim, {id}, [](ir::Builder& body, std::span<ir::Value* const> a) {
            return std::vector<ir::Value*>{body.binary(O::addf, body.binary(O::addf, a[0], a[0]), a[1])};
          })[0];
        return b.reduce({doubled}, dim, {id}, [](ir::Builder& body, std::span<ir::Value* const> a) {
          ir::Value* v = body.reshape(body.reshape(a[0], {1}), {});
          return std::vector<ir::Value*>{body.binary(O::addf, v, a[1])};
        })[0];
      });
      expect_close(out.values(), want, 1e-6, 1e-6, "reduce dim " + std::to_string(dim) + " path " + std::to_string(path));
    }
  }
}

TEST(Aggregates, MultiOperandArgmax) {
  HostTensor x(E::f32, {8});
  const double xs[] = {3, 9, -1, 9, 4, 2, 8, 0};
  for (size_t k = 0; k < 8; ++k) x.set(k, xs[k]);
  HostTensor out(E::i32, {1}, false);
  run_pointer_kernel({&x}, out, [](ir::Builder& b, std::span<ir::Value* const> in) {
    auto r = b.reduce({in[0], b.iota(8)}, 0,
                      {ir::Attribute::floating(ir::Type::element(E::f32), -INFINITY), ir::Attribute::i32(-1)},
                      [](ir::Builder& body, std::span<ir::Value* const> a) {
                        // (value, index) pairs: the larger value wins, the smaller index breaks ties.
                        ir::Value* better = body.cmpf(ir::ComparisonPredicate::greater_than, a[0], a[1]);
                        ir::Value* same = body.cmpf(ir::ComparisonPredicate::equal, a[0], a[1]);
                        ir::Value* earlier = body.cmpi(ir::ComparisonPredicate::less_than, a[2], a[3]);
                        ir::Value* take = body.binary(O::ori, better, body.binary(O::andi, same, earlier));
                        return std::vector<ir::Value*>{body.select(take, a[0], a[1]), body.select(take, a[2], a[3])};
                      });
    return b.reshape(r[1], {1});
  });
  EXPECT_EQ(out.get(0), 1.0);
}

TEST(Aggregates, ScanForwardAndReverse) {
  HostTensor x = iota_tensor(E::i32, {2, 4});
  for (bool reverse : {false, true}) {
    HostTensor out(E::i32, {2, 4}, false);
    run_pointer_kernel({&x}, out, {2, 4}, [&](ir::Builder& b, std::span<ir::Value* const> in) {
      return b.scan({in[0]}, 1, reverse, {ir::Attribute::i32(0)}, [](ir::Builder& body, std::span<ir::Value* const> a) {
        return std::vector<ir::Value*>{body.binary(O::addi, a[0], a[1])};
      })[0];
    });
    EXPECT_EQ(out.values(), reverse ? (Values{6, 6, 5, 3, 22, 18, 13, 7}) : (Values{0, 1, 3, 6, 4, 9, 15, 22}));
  }
  HostTensor f = iota_tensor(E::f32, {2, 4}, 1), prod(E::f32, {2, 4}, false);
  run_pointer_kernel({&f}, prod, {2, 4}, [](ir::Builder& b, std::span<ir::Value* const> in) {
    ir::Value* plus_one = b.binary(O::addf, in[0], b.constant_float(E::f32, 1, {2, 4}));
    return b.scan({plus_one}, 0, false, {ir::Attribute::floating(ir::Type::element(E::f32), 1.0)},
                  [](ir::Builder& body, std::span<ir::Value* const> a) {
                    // Two ops: the slice path.
                    return std::vector<ir::Value*>{body.binary(O::mulf, body.binary(O::mulf, a[0], a[1]), body.constant_float(E::f32, 1))};
                  })[0];
  });
  EXPECT_EQ(prod.values(), (Values{1, 2, 3, 4, 5, 12, 21, 32}));
}

TEST(Aggregates, F16SumRoundsEveryStep) {
  HostTensor x(E::f16, {64}), out(E::f16, {1}, false);
  for (size_t k = 0; k < 64; ++k) x.set(k, k == 0 ? 2048 : 1);  // 2048 + 1 rounds back to 2048 in f16
  run_pointer_kernel({&x}, out, [](ir::Builder& b, std::span<ir::Value* const> in) {
    return b.reshape(b.reduce({in[0]}, 0, {ir::Attribute::floating(ir::Type::element(E::f16), 0.0)}, sum_body)[0], {1});
  });
  EXPECT_EQ(out.get(0), 2048.0);
}

// ---- mma

struct MmaCase {
  E input, acc;
  std::vector<int64_t> lhs, rhs;
};

class Mma : public ::testing::TestWithParam<MmaCase> {};

TEST_P(Mma, MatchesReference) {
  const MmaCase c = GetParam();
  std::mt19937 rng(43);
  const bool batched = c.lhs.size() == 3;
  const int64_t batch = batched ? c.lhs[0] : 1, m = c.lhs[c.lhs.size() - 2], k = c.lhs.back(), n = c.rhs.back();
  std::vector<int64_t> acc_shape = c.lhs;
  acc_shape.back() = n;
  const E storage = c.input == E::tf32 ? E::f32 : c.input;
  HostTensor a(storage, c.lhs), b(storage, c.rhs), acc(c.acc, acc_shape), out(c.acc, acc_shape, false);
  a.fill_random(rng, -2, 2);
  b.fill_random(rng, -2, 2);
  acc.fill_random(rng, -1, 1);
  if (c.input == E::tf32)  // inputs exactly representable in tf32
    for (HostTensor* t : {&a, &b})
      for (size_t i = 0; i < t->size(); ++i) t->set(i, ir::bits_to_float(E::tf32, ir::float_to_bits(E::tf32, t->get(i))));
  run_pointer_kernel({&a, &b, &acc}, out, [&](ir::Builder& bl, std::span<ir::Value* const> in) {
    ir::Value* lhs = c.input == E::tf32 ? bl.ftof(in[0], E::tf32) : in[0];
    ir::Value* rhs = c.input == E::tf32 ? bl.ftof(in[1], E::tf32) : in[1];
    return bl.mmaf(lhs, rhs, in[2]);
  });
  std::vector<double> want(acc.size());
  for (int64_t q = 0; q < batch; ++q)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = acc.get(static_cast<size_t>((q * m + i) * n + j));
        for (int64_t p = 0; p < k; ++p)
          sum += a.get(static_cast<size_t>((q * m + i) * k + p)) * b.get(static_cast<size_t>((q * k + p) * n + j));
        want[static_cast<size_t>((q * m + i) * n + j)] = sum;
      }
  const double rel = c.acc == E::f16 ? 2e-3 : 1e-6;
  expect_close(out.values(), want, rel, rel, std::string(ir::element_type_name(c.input)) + " -> " +
                                                 std::string(ir::element_type_name(c.acc)));
}

INSTANTIATE_TEST_SUITE_P(
    Types, Mma,
    ::testing::Values(MmaCase{E::f16, E::f32, {16, 32}, {32, 8}}, MmaCase{E::f16, E::f16, {16, 32}, {32, 8}},
                      MmaCase{E::bf16, E::f32, {8, 16}, {16, 16}}, MmaCase{E::f32, E::f32, {8, 8}, {8, 16}},
                      MmaCase{E::tf32, E::f32, {8, 8}, {8, 16}}, MmaCase{E::f8e4m3fn, E::f32, {16, 32}, {32, 16}},
                      MmaCase{E::f8e5m2, E::f16, {16, 32}, {32, 16}}, MmaCase{E::f16, E::f32, {2, 8, 16}, {2, 16, 8}},
                      MmaCase{E::f64, E::f64, {4, 8}, {8, 4}}));

TEST(MmaInt, SignednessPerOperand) {
  HostTensor a(E::i8, {4, 8}), b(E::i8, {8, 4}), acc(E::i32, {4, 4}), out(E::i32, {4, 4}, false);
  std::mt19937 rng(47);
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t k = 0; k < a.size(); ++k) a.set_bits(k, static_cast<uint64_t>(byte(rng)));
  for (size_t k = 0; k < b.size(); ++k) b.set_bits(k, static_cast<uint64_t>(byte(rng)));
  for (size_t k = 0; k < acc.size(); ++k) acc.set(k, static_cast<double>(k) - 8);
  run_pointer_kernel({&a, &b, &acc}, out, [](ir::Builder& bl, std::span<ir::Value* const> in) {
    return bl.create_value(O::mmai, in[2]->type(), {in[0], in[1], in[2]},
                           {{"signedness_lhs", ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_)},
                            {"signedness_rhs", ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::unsigned_)}});
  });
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      int64_t sum = static_cast<int64_t>(acc.get(static_cast<size_t>(i * 4 + j)));
      for (int64_t p = 0; p < 8; ++p)
        sum += static_cast<int64_t>(a.get(static_cast<size_t>(i * 8 + p))) * static_cast<int64_t>(b.bits(static_cast<size_t>(p * 4 + j)));
      EXPECT_EQ(out.get(static_cast<size_t>(i * 4 + j)), static_cast<double>(sum));
    }
}

}  // namespace
