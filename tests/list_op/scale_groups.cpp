// scale_groups: the description and launcher of scale_groups.hpp, registered where this file is linked.
#include "list_op/scale_groups.hpp"

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::test_support {

void launch_scale_groups(op::Target& target, std::span<const AnyTensor* const> ys,
                         std::span<const AnyTensor* const> xs, double factor) {
  op::with_float_element(xs[0]->element_type(), [&]<class E>() {
    const TensorList<E> outputs = target.tensor_list<E>(ys);
    target.launch({}, scale_groups<E, kScaleGroupsTile>, outputs.partition({1, kScaleGroupsTile}),
                  target.tensor_list<E>(xs), factor);
  });
}

const op::OpSpec scale_groups_op{
    .name = "scale_groups",
    .family = "test",
    .doc =
        "ys[g] = factor * xs[g] for every g: lists of tensors through the op layer, the C ABI and Python "
        "(a test-only op).",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("ys", "E[M, N]").listed("G"), op::in("xs", "E[M, N]").listed("G")},
    .scalars = {op::real("factor", 2.0).valid_when("finite(factor)")},
    .rules = {op::unsupported_unless("N <= 64", "a row of an element is one (1, 64) tile")},
    .launch = op::bind<launch_scale_groups>(),
    .configurations = {"G=3 M=5 N={1,64} E={f32,bf16}"},
    .tilegym = {.name = "scale_groups",
                .signature = "group_x, factor=2.0, **kwargs",
                .renames = "xs=group_x"},
};

const op::Registration registration{scale_groups_op};

}  // namespace cutile::test_support
