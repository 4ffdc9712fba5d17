"""torch.compile traces through the cutile_cpp ops as single custom-op nodes: no graph break."""

from __future__ import annotations

import torch

import cutile_cpp
from support import GPU_COUNT


def assert_sum_close(s, a):
    """s is Σ (a + a) in float32, summed in an order of the compiler's choosing: within float32's worst-case
    rounding of a sum of a.numel() terms (n · 2^-24 · Σ|terms|) of the float64 sum."""
    terms = a.double() * 2
    torch.testing.assert_close(s.double(), terms.sum(), rtol=0, atol=a.numel() * 2**-24 * terms.abs().sum().item())


def model(x, a):
    return cutile_cpp.softmax(x * 2.0) + 1.0, cutile_cpp.vector_add(a, a).sum()


def capture(graphs):
    def backend(graph_module, example_inputs):
        graphs.append(graph_module)
        return graph_module.forward

    return backend


def custom_ops(graph_module):
    """The cutile_cpp ops the graph calls, by name (overload packets and their default overloads alike)."""
    targets = [str(node.target) for node in graph_module.graph.nodes if node.op == "call_function"]
    return [t.removesuffix(".default") for t in targets if t.startswith("cutile_cpp.")]


def test_fake_implementations_give_the_output_metadata():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(300, 40).t()
        y = torch.ops.cutile_cpp.softmax(x)
        assert y.shape == (40, 300) and y.stride() == x.stride() and y.dtype == x.dtype
        assert torch.ops.cutile_cpp.vector_add(torch.empty(9), torch.empty(9)).shape == (9,)


def test_export_makes_one_graph_with_both_ops():
    class Model(torch.nn.Module):
        def forward(self, x, a):
            return model(x, a)

    device = "cuda" if GPU_COUNT else "cpu"
    exported = torch.export.export(Model(), (torch.randn(4, 8, device=device), torch.randn(16, device=device)))
    assert custom_ops(exported.graph_module) == ["cutile_cpp.softmax", "cutile_cpp.vector_add"]


def test_compile_fullgraph():
    graphs = []
    compiled = torch.compile(model, fullgraph=True, backend=capture(graphs))
    device = "cuda" if GPU_COUNT else "cpu"
    x, a = torch.randn(4, 8, device=device), torch.randn(16, device=device)
    y, s = compiled(x, a)
    torch.testing.assert_close(y, torch.softmax(x * 2.0, -1) + 1.0)
    assert_sum_close(s, a)
    assert len(graphs) == 1
    assert custom_ops(graphs[0]) == ["cutile_cpp.softmax", "cutile_cpp.vector_add"]


def test_compile_with_inductor():
    device = "cuda" if GPU_COUNT else "cpu"
    explanation = torch._dynamo.explain(model)(torch.randn(4, 8, device=device), torch.randn(16, device=device))
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1
    compiled = torch.compile(model, fullgraph=True)
    x, a = torch.randn(64, 100, device=device), torch.randn(1000, device=device)
    y, s = compiled(x, a)
    torch.testing.assert_close(y, torch.softmax(x * 2.0, -1) + 1.0)
    assert_sum_close(s, a)
