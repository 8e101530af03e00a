"""Solitaire Clobber and SC2: reference rules, theory, the exact solver, and the
constructions of the papers (Hamming graphs, the SC2 reducibility notions, hardness)."""

from .hamming import hamming_sizes, reduce_hamming
from .hardness import (
    HardnessConstruction,
    check_circuit,
    from_grid_graph,
    hamiltonian_circuit,
    mask_text,
    parse_grid_graph,
    witness_from_circuit,
)
from .reducibility import (
    Counterexample,
    PropertyCheck,
    check_property,
    clear_tables,
    is_1vc_reducible,
    is_k_reducible,
    parity_difference,
    prop6_configuration,
    reachable_singletons,
    reduce_to_vertex,
    reducibility_table,
    sc2_minimum,
    search_endings,
)
from .rules import ReplayResult, legal_moves, play, replay
from .solver import SolitaireResult, solve
from .theory import checkerboard_value, clashing_stones, delta, one_d_value

__all__ = ["ReplayResult", "legal_moves", "play", "replay", "SolitaireResult", "solve",
           "checkerboard_value", "clashing_stones", "delta", "one_d_value",
           # Dorbec, Duchene, Gravier: SC2 reducibility notions, checked exhaustively
           "check_property", "PropertyCheck", "Counterexample", "reducibility_table",
           "clear_tables", "reachable_singletons", "sc2_minimum", "is_k_reducible",
           "is_1vc_reducible", "reduce_to_vertex", "search_endings", "parity_difference",
           "prop6_configuration",
           # the constructive reducer on Hamming graphs and hypercubes
           "reduce_hamming", "hamming_sizes",
           # Demaine, Demaine, Fleischer Thm 6: the NP-hardness reduction
           "from_grid_graph", "HardnessConstruction", "parse_grid_graph", "mask_text",
           "hamiltonian_circuit", "check_circuit", "witness_from_circuit"]
