// The attributes a FloatMode becomes, checked against what the op has.
#include <string>

#include "cutile/error.hpp"
#include "cutile/math.hpp"

namespace cutile::detail {
namespace {

const char* rounding_name(Rounding r) {
  switch (r) {
    case Rounding::standard: return "standard";
    case Rounding::nearest_even: return "nearest_even";
    case Rounding::zero: return "zero";
    case Rounding::down: return "down";
    case Rounding::up: return "up";
    case Rounding::approx: return "approx";
  }
  return "?";
}

ir::RoundingMode ir_rounding(Rounding r) {
  switch (r) {
    case Rounding::zero: return ir::RoundingMode::zero;
    case Rounding::down: return ir::RoundingMode::negative_inf;
    case Rounding::up: return ir::RoundingMode::positive_inf;
    case Rounding::approx: return ir::RoundingMode::approx;
    default: return ir::RoundingMode::nearest_even;
  }
}

}  // namespace

std::vector<ir::NamedAttribute> float_mode_attrs(std::string_view name, FloatMode mode, ModeSupport support, bool is_f32,
                                                 const std::source_location& where) {
  auto refuse = [&](const std::string& why) {
    throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) + ": " + std::string(name) +
                    ": " + why);
  };
  std::vector<ir::NamedAttribute> attrs;
  const bool directed = mode.rounding != Rounding::standard && mode.rounding != Rounding::approx;
  if (directed && !support.directed)
    refuse(std::string("rounding ") + rounding_name(mode.rounding) + " is not available (only approx or the standard one)");
  if (mode.rounding == Rounding::approx && !support.approx)
    refuse("there is no approximate form of this op");
  if (mode.rounding == Rounding::approx && !is_f32) refuse("approximate rounding needs f32 operands");
  if (mode.flush_to_zero && !support.flush) refuse("this op has no flush-to-zero mode");
  if (mode.flush_to_zero && !is_f32) refuse("flush_to_zero needs f32 operands");
  if (mode.flush_to_zero) attrs.push_back({"flush_to_zero", ir::Attribute::unit()});
  if (mode.rounding != Rounding::standard)
    attrs.push_back({"rounding_mode", ir::Attribute::enum_of(ir::EnumKind::rounding, ir_rounding(mode.rounding))});
  return attrs;
}

}  // namespace cutile::detail
