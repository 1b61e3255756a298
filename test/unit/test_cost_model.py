"""The cost model the forms compete by (convopt/lowering/kernel/cost.py,
forms/registry.py `choose`): each variant's Work from the request's sizes,
its price on a profile's Costs, and one argmin.  No IR: the requests carry
sizes only."""

from __future__ import annotations

from dataclasses import replace

import pytest

from convopt.lowering.forms import registry
from convopt.lowering.forms.generic_form import compact, generic_variants, generic_work
from convopt.lowering.forms.matmul_forms import im2col_variants, im2col_work
from convopt.lowering.forms.named_form import named_variants, named_work
from convopt.lowering.forms.tap_matmul import taps_fits, taps_work
from convopt.lowering.kernel.cost import FIELDS, FITTED_MIN_MACS, Costs, Work, dim_work, inserts, output_elements, within_fit
from convopt.lowering.kernel.device import AVX2_COSTS, AVX512_COSTS, CPU_COSTS, PROFILES, Device
from convopt.lowering.kernel.relation import Kind, Rel, Strategy
from convopt.lowering.kernel.request import KernelChoices, KernelRequest, Peel, sized
from convopt.lowering.kernel.tiles import decide


def request(kind: Kind, n: int, g: int, ca: int, cb: int, rels: list[Rel], device: Device = Device.CPU, costs: Costs | None = None, form: str = "auto", peel: Peel = Peel.AUTO) -> KernelRequest:
    profile = PROFILES[device] if costs is None else replace(PROFILES[device], costs=costs)
    roles = {"n": n, "g": g, "ca": ca, "cb": cb}
    return decide(sized(kind, roles, rels, KernelChoices(peel=peel, form=form, device=profile)))


PADDED_1D = Rel(S=1, D=1, P=1, K=3, Ns=8, Nb=8)  # 8 positions, 3 taps, one zero at each end
SAME_3X3 = [Rel(S=1, D=1, P=1, K=3, Ns=56, Nb=56)] * 2
STRIDED = [Rel(S=2, D=1, P=1, K=3, Ns=28, Nb=56)] * 2


def test_costs_price_work_field_by_field():
    work = Work(generic=10.0, matmul=100.0, copy_byte=8.0, dispatch=2.0) + Work(dispatch=1.0)
    costs = Costs(generic=1.0, matmul=0.5, copy_byte=0.25, dispatch=100.0, build=1000.0)
    assert work.dispatch == 3.0
    assert costs.time(work) == 10 + 50 + 2 + 300
    assert costs.total(work) == costs.time(work) + 3 * 1000
    assert set(FIELDS) < {f for f in Costs.__dataclass_fields__}


def test_dim_work_counts_executed_pairs_and_pieces():
    # gather over 8 positions, 3 taps: 22 useful pairs (2 taps miss the border)
    assert dim_work(Kind.GATHER, PADDED_1D, Strategy.PADDED) == (24, 1)
    assert dim_work(Kind.GATHER, PADDED_1D, Strategy.PEELED) == (22, 3)
    assert dim_work(Kind.SCATTER, PADDED_1D, Strategy.TAPS) == (22, 3)
    dynamic = Rel(S=1, D=1, P=1, K=3, Ns=object(), Nb=object())  # type: ignore[arg-type]
    assert dim_work(Kind.GATHER, dynamic, Strategy.TAPS)[1] == 1


def test_generic_work_peeled_is_exact_and_padded_is_one_op():
    peeled = generic_work(request(Kind.GATHER, 2, 1, 4, 4, [PADDED_1D], peel=Peel.ALWAYS))
    padded = generic_work(request(Kind.GATHER, 2, 1, 4, 4, [PADDED_1D], peel=Peel.NEVER))
    assert peeled.generic == 2 * 4 * 4 * 22 and padded.generic == 2 * 4 * 4 * 24
    # 3 pieces: 3 ops and their 3 inserts into the result (a copy of it)
    assert peeled.dispatch == 6 and padded.dispatch == 1
    assert peeled.copy_byte == 4 * output_elements(Kind.GATHER, {"n": 2, "g": 1, "ca": 4, "cb": 4}, [PADDED_1D]) and padded.copy_byte == 0
    weight = generic_work(request(Kind.WEIGHT, 2, 1, 4, 4, [PADDED_1D]))
    depthwise = generic_work(request(Kind.WEIGHT, 2, 8, 1, 1, [PADDED_1D]))
    assert weight.generic_weight > 0 and weight.generic == 0 and depthwise.generic_depthwise > 0


def test_inserts_only_for_several_tiles():
    assert inserts(1, 100) == Work()
    assert inserts(4, 100) == Work(dispatch=4.0, copy_byte=400.0)


def test_im2col_work_counts_the_matmuls_and_their_copies():
    req = request(Kind.WEIGHT, 2, 1, 8, 16, [PADDED_1D])
    pieces, padded = (v.work for v in im2col_variants(req))
    assert pieces.matmul_op == 3 and padded.matmul_op == 1  # one matmul per peeled piece
    assert pieces.matmul == 2 * 8 * 16 * 22 and padded.matmul == 2 * 8 * 16 * 24
    scatter = im2col_work(request(Kind.SCATTER, 2, 1, 8, 16, [PADDED_1D]))
    assert scatter.matmul == 2 * 8 * 16 * 24 and scatter.matmul_op == 1  # col2im multiplies every (s, k) pair


def test_named_work_reads_the_padded_windows():
    work = named_work(request(Kind.SCATTER, 2, 1, 8, 16, SAME_3X3))
    assert work.named == 2 * 8 * 16 * (56 * 3) ** 2 and work.dispatch == 4
    assert named_work(request(Kind.GATHER, 2, 16, 1, 1, SAME_3X3)).named_depthwise > 0
    assert named_work(request(Kind.WEIGHT, 2, 16, 1, 1, SAME_3X3)).named_weight > 0


def test_taps_work_is_exact_with_one_product_per_reaching_tap():
    # 3x1x1 weight kernel, depth 4 padded by 1: taps 0 and 2 reach 3 slabs, tap 1 all 4
    rels = [Rel(S=1, D=1, P=1, K=3, Ns=4, Nb=4), Rel(S=1, D=1, P=0, K=1, Ns=5, Nb=5), Rel(S=1, D=1, P=0, K=1, Ns=5, Nb=5)]
    work = taps_work(request(Kind.WEIGHT, 2, 1, 8, 4, rels))
    assert work.matmul == 2 * 8 * 4 * 25 * (3 + 4 + 3)  # = useful multiply-adds (lit taps.mlir: 16000)
    assert work.matmul_op == 3 and work.dispatch == 4 and work.copy_byte == 4 * 3 * 2 * 8 * 4
    # padding 2 on depth 1 with 5 taps: only the middle tap reaches the input
    lone = taps_work(request(Kind.WEIGHT, 2, 1, 8, 4, [Rel(S=1, D=1, P=2, K=5, Ns=1, Nb=1)]))
    assert lone.matmul_op == 1 and lone.matmul == 2 * 8 * 4


def test_taps_fits_kernels_whose_other_dims_are_identities():
    depth = Rel(S=1, D=1, P=1, K=3, Ns=4, Nb=4)
    same = Rel(S=1, D=1, P=0, K=1, Ns=5, Nb=5)
    assert taps_fits(request(Kind.WEIGHT, 2, 1, 8, 4, [depth, same, same]))
    assert taps_fits(request(Kind.WEIGHT, 2, 1, 8, 4, [Rel(S=2, D=1, P=1, K=3, Ns=4, Nb=8)]))  # 1-D: a strided view
    assert not taps_fits(request(Kind.WEIGHT, 2, 1, 8, 4, [Rel(S=2, D=1, P=1, K=3, Ns=2, Nb=4), same]))  # strided with an inner dim
    assert not taps_fits(request(Kind.WEIGHT, 2, 1, 8, 4, SAME_3X3))  # taps along an inner dim: no view
    assert not taps_fits(request(Kind.WEIGHT, 2, 1, 8, 4, [Rel(S=1, D=1, P=0, K=3, Ns=3, Nb=5), Rel(S=1, D=1, P=0, K=1, Ns=4, Nb=6)]))
    assert not taps_fits(request(Kind.WEIGHT, 2, 2, 8, 4, [depth, same, same]))  # grouped
    assert not taps_fits(request(Kind.GATHER, 2, 1, 8, 4, [depth, same, same]))  # weight kernels only
    assert not taps_fits(request(Kind.WEIGHT, 2, 1, 8, 4, [Rel(S=1, D=1, P=4, K=9, Ns=8, Nb=8)]))  # more than MAX_TAPS
    assert not registry.form("taps").candidate(request(Kind.WEIGHT, 2, 1, 8, 4, [depth, same, same], device=Device.GPU))


def test_variants_offered():
    seven = [Rel(S=1, D=1, P=3, K=7, Ns=8, Nb=8)] * 2
    assert [v.name for v in generic_variants(request(Kind.SCATTER, 2, 32, 1, 1, seven))] == ["pieces", "compact"]
    assert compact(request(Kind.SCATTER, 2, 32, 1, 1, SAME_3X3)) is not None  # 3x3: a compact variant too
    assert compact(request(Kind.SCATTER, 2, 32, 1, 1, [Rel(S=1, D=1, P=0, K=2, Ns=7, Nb=8)] * 2)) is None  # 2x2: none
    assert compact(request(Kind.SCATTER, 2, 32, 4, 4, seven)) is None  # dense
    assert compact(request(Kind.SCATTER, 2, 32, 1, 1, seven, peel=Peel.ALWAYS)) is None  # a peel asked for is kept
    one_op = compact(request(Kind.SCATTER, 2, 32, 1, 1, seven))
    assert one_op is not None and one_op.choices.peel == Peel.NEVER and one_op.emission.strategies == (Strategy.PHASES,) * 2
    assert one_op.choices.device == PROFILES[Device.CPU]  # the variant is its emission, not another profile
    assert [v.name for v in im2col_variants(request(Kind.SCATTER, 2, 1, 8, 8, STRIDED))] == ["pieces"]  # col2im has no pieces
    assert [v.name for v in im2col_variants(request(Kind.GATHER, 2, 1, 8, 8, [Rel(S=1, D=1, P=0, K=3, Ns=6, Nb=8)]))] == ["pieces"]  # nothing to peel


def test_the_argmin_follows_the_costs():
    req = request(Kind.WEIGHT, 2, 1, 8, 16, [PADDED_1D])
    cheap_matmuls = replace(AVX512_COSTS, matmul_op=0.0, dispatch=0.0, build=0.0, peel_build=0.0, copy_byte=0.0)
    dear_matmuls = replace(AVX512_COSTS, matmul_op=1e6)
    pick = registry.choose(request(Kind.WEIGHT, 2, 1, 8, 16, [PADDED_1D], costs=cheap_matmuls))
    assert (pick.form.name, pick.variant.name) == ("im2col", "pieces")  # exact: fewer multiply-adds
    pick = registry.choose(request(Kind.WEIGHT, 2, 1, 8, 16, [PADDED_1D], costs=dear_matmuls))
    assert pick.form.name == "generic"  # im2col's matmuls priced out
    offered = [min(registry.form(f).variants(req), key=lambda v: dear_matmuls.within_form(v.work)) for f in ("generic", "im2col", "named") if registry.form(f).fits(req)]
    assert pick.cost == min(dear_matmuls.total(v.work) for v in offered)


def test_a_forms_variants_weigh_the_build_more():
    """Each form offers its variant of least time + dispatches * peel_build;
    the forms compete by time + dispatches * build."""
    costs = Costs(generic=1.0, build=10.0, peel_build=100.0)
    req = request(Kind.GATHER, 2, 1, 8, 8, SAME_3X3, costs=costs)
    pieces, one_op = Work(generic=100_000.0, dispatch=11.0), Work(generic=100_800.0, dispatch=1.0)

    def form(name: str, *works: Work) -> registry.FormDef:
        return registry.form("generic")._replace(name=name, variants=lambda r: [registry.Variant(f"v{i}", r, w) for i, w in enumerate(works)])

    # one form: 100000 + 11 * 100 > 100800 + 1 * 100, so it offers the one op
    assert registry.cheapest([form("a", pieces, one_op)], req).variant.work == one_op
    # two forms: 100000 + 11 * 10 < 100800 + 1 * 10, so the pieces' form wins
    pick = registry.cheapest([form("a", pieces), form("b", one_op)], req)
    assert pick.form.name == "a" and pick.cost == costs.total(pieces)


def test_below_the_fitted_range_only_nearly_exact_variants_compete():
    exact, padded, channels_last = Work(generic=1000.0), Work(matmul=1500.0), Work(named=1100.0)
    assert within_fit([exact, padded, channels_last]) == [True, False, True]  # 1100 within 1/0.9 of 1000
    big = FITTED_MIN_MACS
    assert within_fit([Work(generic=big), Work(matmul=3.0 * big)]) == [True, True]
    # small9 of im2col-peel.mlir at a quarter of the batch: padded would be cheaper, exact pieces compete alone
    tiny = [Rel(S=1, D=1, P=1, K=3, Ns=4, Nb=4)] * 2
    pick = registry.choose(request(Kind.WEIGHT, 1, 1, 4, 4, tiny, device=Device.AVX512))
    assert pick.variant.work.macs() == 4 * 4 * 10 * 10


def test_ties_go_to_the_lower_priority():
    flat = Costs(generic=1.0, generic_weight=1.0, generic_depthwise=1.0, matmul=1.0)
    req = request(Kind.GATHER, 2, 1, 8, 8, [Rel(S=1, D=1, P=0, K=3, Ns=6, Nb=8)], costs=flat)  # no padding: equal multiply-adds
    assert registry.choose(req).form.name == "im2col"  # priority 20 before generic's 1000


def test_a_forced_form_takes_its_own_cheapest_variant():
    req = request(Kind.WEIGHT, 2, 1, 8, 16, [PADDED_1D], costs=replace(AVX512_COSTS, matmul_op=1e6), form="im2col")
    pick = registry.choose(req)
    assert (pick.form.name, pick.variant.name) == ("im2col", "padded")
    assert registry.choose(replace(req, choices=replace(req.choices, form="named"))).form.name == "generic"  # named does not fit: fallback


def test_candidates_follow_what_the_profile_builds():
    big = request(Kind.SCATTER, 8, 1, 64, 64, SAME_3X3, device=Device.GPU)
    assert not registry.form("im2col").candidate(big) and not registry.form("named").candidate(big)
    assert registry.choose(big).form.name == "generic"
    for device in (Device.CPU, Device.AVX2, Device.AVX512):
        assert registry.form("named").candidate(request(Kind.SCATTER, 8, 1, 64, 64, SAME_3X3, device=device))


@pytest.mark.parametrize("cin, considered", [(4, True), (6, True), (8, True), (12, False), (16, True), (20, False), (24, True), (28, False), (40, True)])
def test_dense_channels_last_only_with_whole_vector_lanes(cin, considered):
    """auto leaves conv_2d_nhwc_hwcf out where its output channels (a
    scatter's Cb = Cin) are over 8 and not a multiple of 8 (4.5-9.5x slower
    than im2col, channels_last.DENSE_LANES); a forced named still takes it."""
    rels = [Rel(S=1, D=1, P=1, K=3, Ns=16, Nb=16)] * 2
    for device in (Device.CPU, Device.AVX2, Device.AVX512):
        scatter = request(Kind.SCATTER, 2, 1, 16, cin, rels, device=device)
        assert registry.form("named").candidate(scatter) == considered
        assert registry.form("named").fits(scatter)
        assert registry.choose(replace(scatter, choices=replace(scatter.choices, form="named"))).form.name == "named"
    assert registry.form("named").candidate(request(Kind.SCATTER, 2, 1, cin, 16, rels))  # Ca = Cout: not the output's


def test_the_strided_dense_gather_stays_out_of_channels_last():
    """channels_last.competes keeps it out: unet-up-transposed's grad_input
    ran 31.7x the fastest form as channels-last (results/forms-zen5), and
    the prices alone would take it on AVX-512 (the fit's named_strided is
    named's: docs/decisions.md, channels_last_kernels)."""
    req = request(Kind.GATHER, 2, 1, 128, 64, [Rel(S=2, D=1, P=1, K=3, Ns=14, Nb=28)] * 2, device=Device.AVX512)
    pick = registry.choose(req)
    assert not registry.form("named").candidate(req) and pick.form.name != "named"
    assert PROFILES[Device.AVX512].costs.total(named_variants(req)[0].work) < pick.cost


def test_a_padded_depthwise_weight_kernel_competes_by_its_price():
    """convnext's 7x7 dwconv weight kernel (0.62 useful multiply-adds),
    kept out by MIN_EFFICIENCY until 2026-12-05, ran fastest as
    channels-last on both targets (results/forms-zen5): it competes now,
    and its price takes it."""
    for device in (Device.AVX2, Device.AVX512):
        req = request(Kind.WEIGHT, 2, 16, 1, 1, [Rel(S=1, D=1, P=3, K=7, Ns=8, Nb=8)] * 2, device=device)
        assert registry.form("named").candidate(req) and registry.choose(req).form.name == "named"


@pytest.mark.parametrize("field", [*FIELDS, "build", "peel_build"])
def test_cpu_costs_lie_between_the_classes(field):
    low, high = sorted((getattr(AVX512_COSTS, field), getattr(AVX2_COSTS, field)))
    assert low <= getattr(CPU_COSTS, field) <= high


def test_cpu_costs_of_the_units_the_classes_disagree_on():
    """Geometric means worked out by hand from the classes' fitted costs
    (named: 0.007846 and 0.06951 ns, a 8.9x gap; matmul 0.01764 and
    0.02394), and what they decide: the dense 3x3 scatter whose
    conv_2d_nhwc_hwcf is 9.4x faster than col2im on AVX-512 and 2.96x slower
    on AVX2 takes the named form on `cpu` (the larger ratio wins)."""
    assert CPU_COSTS.named == pytest.approx(0.023353, rel=1e-4)
    assert CPU_COSTS.matmul == pytest.approx(0.020550, rel=1e-4)
    assert CPU_COSTS.build == 1200.0
    dense = [Rel(S=1, D=1, P=1, K=3, Ns=28, Nb=28)] * 2
    assert registry.choose(request(Kind.SCATTER, 2, 1, 128, 128, dense, device=Device.CPU)).form.name == "named"


def test_measured_choices_per_class():
    """The choices the fitted costs make on measured kernels (bench/results/costfit.txt)."""
    # resnet-3x3-s1 grad_input: conv_2d_nhwc_hwcf 9.4x faster than col2im on AVX-512, 2.96x slower on AVX2
    dense = [Rel(S=1, D=1, P=1, K=3, Ns=28, Nb=28)] * 2
    assert registry.choose(request(Kind.SCATTER, 2, 1, 128, 128, dense, device=Device.AVX512)).form.name == "named"
    assert registry.choose(request(Kind.SCATTER, 2, 1, 128, 128, dense, device=Device.AVX2)).form.name == "im2col"
    # resnext-g32 grad_input (Ca = Cb = 4 per group): generic taps 2.4x / 2.8x faster than col2im
    grouped = [Rel(S=1, D=1, P=1, K=3, Ns=28, Nb=28)] * 2
    for device in (Device.AVX512, Device.AVX2):
        assert registry.choose(request(Kind.SCATTER, 2, 32, 4, 4, grouped, device=device)).form.name == "generic"
