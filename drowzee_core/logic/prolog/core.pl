/*  Drowzee Triangulator: the rule families over a knowledge base of integer triples.

    Every entity and relation is an integer id; names and labels live in SQLite and never reach
    Prolog source. Python asserts the data through janus with bound arguments:

      t(S, R, O)          base fact          nt(S, R, O)      explicit negative fact
      symmetric(R)  transitive(R)  functional(R)  irreflexive(R)  inverse(R, Ri)
      composite(Name, R1, R2, R3)   same_object(R0, R)   disjoint(R, R2)   (the compiled catalog)
      partition(R, M, K)  the members of K (facts C M K) are the cells of a partition under R
      complete(R)         the KB lists every R value of a subject it lists any for (local closed world)

    Derivation is stratified:
      level 1  symmetric and inverse consequences of base facts      (materialized: dfact/5)
      level 2  transitive closure over base + level 1                 (tabled: tc/3)
               and the inverse of that closure                        (computed on demand)
      level 3  composite chains over levels 0-2                       (materialized: dfact/5)
      on demand: negation (contradiction) and "share the same object"
    A proof is rule(Family, fact(S,R,O), [Premise...]) with fact/3 leaves for base facts and
    negfact/3 leaves for explicit negative facts.

    session.py consults this source once per module name (the main KB in `drowzee`, a pair's
    supplied triples in `drowzee_scratch`, ...), renaming only the module declaration below; every
    table and flag is local to its module, so resetting one KB leaves the others intact.
*/
:- module(drowzee, []).

:- dynamic t/3, nt/3, symmetric/1, transitive/1, functional/1, irreflexive/1, inverse/2,
           composite/4, same_object/2, disjoint/2, partition/3, complete/1, dfact/5, level1_done/0,
           d1/4, d3/3, transitive_total/2.

% ------------------------------------------------------------------ loading
%   Only this module's tables: abolish_all_tables would also empty another KB's tables.
reset :-
    context_module(M), abolish_module_tables(M), retractall(level1_done),
    retractall(t(_,_,_)), retractall(nt(_,_,_)), retractall(dfact(_,_,_,_,_)), retractall(d1(_,_,_,_)),
    retractall(d3(_,_,_)), retractall(transitive_total(_,_)),
    retractall(symmetric(_)), retractall(transitive(_)), retractall(functional(_)), retractall(irreflexive(_)),
    retractall(inverse(_,_)), retractall(composite(_,_,_,_)), retractall(same_object(_,_)),
    retractall(disjoint(_,_)), retractall(partition(_,_,_)), retractall(complete(_)).

%!  load_rows(+Rows) is det.
%   Rows is a list of (S, R, O, Negated) tuples (janus passes tuples as -(S,R,O,N)).
load_rows([]).
load_rows([Row|Rows]) :-
    Row =.. [_, S, R, O, N],
    ( N =:= 0 -> assertz(t(S,R,O)) ; assertz(nt(S,R,O)) ),
    load_rows(Rows).

% ------------------------------------------------------------------ level 1
level1(symmetric, S, R, O, [fact(O,R,S)]) :-
    symmetric(R), t(O, R, S), \+ t(S, R, O).
level1(inverse, S, R, O, [fact(O,Ri,S)]) :-
    inverse(R, Ri), t(O, Ri, S), \+ t(S, R, O).

prepared :- level1_done.

%!  prepare(-Symmetric, -Inverse) is det.  Level 1 once; proving needs nothing more.
%   (`derive` in engine.py runs the two families one by one, to time each, then mark_prepared.)
prepare(Sym, Inv) :-
    materialize_level1(symmetric, Sym),
    materialize_level1(inverse, Inv),
    mark_prepared.

mark_prepared :- retractall(level1_done), assertz(level1_done).

materialize_level1(Family, Count) :-
    aggregate_all(count,
        ( level1(Family, S, R, O, Premises),
          \+ level1_fact(S, R, O),
          d1_key(S, R, K),
          assertz(d1(K, S, R, O)),
          assertz(dfact(S, R, O, 1, rule(Family, Premises)))
        ), Count).

%   A derived fact is stored twice: dfact/5 holds its level and rule (for proofs), d1/4 (level 1)
%   or d3/3 (level 3) its bare triple for lookups. dfact/5 is indexed by subject alone, and a
%   container's subject holds every place it contains whatever relation is asked: "is this region
%   located in ...?" scanned them all, for every region, at every step of a closure. d1/4 leads
%   with one integer for subject and relation together (`d1_key/3`), so a lookup with both bound
%   goes straight to its facts (SWI-Prolog's just-in-time indexes pick one argument here, the
%   subject); the other arguments serve lookups without a subject.
d1_key(S, R, K) :- K is S << 20 \/ R.

%!  level1_fact(?S, +R, ?O) is nondet.  A level-1 (symmetric or inverse) fact.
level1_fact(S, R, O) :-
    (   nonvar(S)
    ->  d1_key(S, R, K), d1(K, S, R, O)
    ;   d1(_, S, R, O)
    ).

%   Level-1 facts exist only for symmetric relations and relations with an inverse; the guard keeps
%   other relations' lookups off d1/4.
has_level1(R) :- symmetric(R), !.
has_level1(R) :- inverse(R, _), !.

edge(X, R, Y) :- t(X, R, Y).
edge(X, R, Y) :- has_level1(R), level1_fact(X, R, Y).

% ------------------------------------------------------------------ level 2: transitive
%   Of an inverse pair that is transitive on both sides only the first-declared relation is
%   tabled; the other's closure is its inverse.
canonical_transitive(R) :-
    transitive(R),
    \+ ( inverse(R, Ri), transitive(Ri), Ri < R ).

mirrored_transitive(R, Rc) :-
    inverse(R, Rc), canonical_transitive(Rc), transitive(R), R \== Rc.

:- table tc/3.
tc(X, R, Y) :- edge(X, R, Y).
tc(X, R, Z) :- edge(X, R, Y), tc(Y, R, Z).

%   rtc(Y, R, X): X reaches Y over R's edges, tabled from Y (the closure read backwards: "every place
%   in France"). A node that nothing reaches gets no table: a tree's leaves, most of a KB's subjects,
%   are never asked, so the closure of a located-in forest takes a table per region, not per town.
:- table rtc/3.
rtc(Y, R, X) :- edge(X, R, Y).
rtc(Y, R, X) :- edge(W, R, Y), reached(W, R), rtc(W, R, X).

reached(W, R) :- t(_, R, W), !.
reached(W, R) :- has_level1(R), level1_fact(_, R, W), !.

%   transitive facts with X unbound: the targets of R's edges, each with the sources that reach it
%   (its backward table).
closure(X, R, Y) :-
    findall(Y0, edge(_, R, Y0), Ys0),
    sort(Ys0, Ys),
    member(Y, Ys),
    rtc(Y, R, X).

%   reach(?X, +R, ?Y): X reaches Y over R's edges, from whichever end is bound.
reach(X, R, Y) :- nonvar(X), !, tc(X, R, Y0), Y0 = Y.
reach(X, R, Y) :- nonvar(Y), !, rtc(Y, R, X).
reach(X, R, Y) :- closure(X, R, Y).

%   The transitive facts of R are its closure less its edges. Every edge X R Y is in Y's backward
%   table, so per target Y they number |rtc(Y)| less the distinct sources of Y's edges: counted from
%   the completed tables, without a lookup per fact (`closure(X, R, Y), \+ edge(X, R, Y)` enumerates
%   the same facts, as holds/4 and derived_sample/3 do).
materialize_transitive(Count) :-
    aggregate_all(sum(N), ( canonical_transitive(R), transitive_count(R, N) ), Count).

%   transitive_count(+R, -Count): counted once per derivation (the closure's inverse reuses it).
transitive_count(R, Count) :- transitive_total(R, Count), !.
transitive_count(R, Count) :-
    count_transitive(R, Count),
    assertz(transitive_total(R, Count)).

count_transitive(R, Count) :-
    findall(Y0, edge(_, R, Y0), Ys0),
    sort(Ys0, Ys),
    foldl(target_count(R), Ys, 0, Count).

target_count(R, Y, N0, N) :-
    aggregate_all(count, rtc(Y, R, _), Reached),
    findall(X, edge(X, R, Y), Xs0),
    sort(Xs0, Xs),
    length(Xs, Edges),
    N is N0 + Reached - Edges.

%   inverse consequences of the closure (for a mirrored pair, the other relation's closure)
%   that are not already edges of the inverse relation: the transitive facts X Rc Y less those with
%   an edge Y Ri X. Such an edge is a base fact of Ri, or a level-1 one made from a base fact: X Ri Y
%   (Ri symmetric) or X R' Y (R' an inverse of Ri); made from X Rc Y it would be an edge of Rc, which
%   no transitive fact is. So only base facts are looked at, not a lookup per transitive fact.
count_inverse_closure(Count) :-
    aggregate_all(sum(N),
        ( inverse(Ri, Rc), canonical_transitive(Rc),
          transitive_count(Rc, Transitive),
          findall(X-Y, inverse_edge_source(Ri, Rc, X, Y), Pairs0),
          sort(Pairs0, Pairs),
          aggregate_all(count,
              ( member(X-Y, Pairs), \+ edge(X, Rc, Y), holds(X, Rc, Y, transitive) ), Overlap),
          N is Transitive - Overlap ),
        Count).

%   inverse_edge_source(+Ri, +Rc, -X, -Y): a base fact that gives Y Ri X, at level 0 or 1, other than X Rc Y.
inverse_edge_source(Ri, _, X, Y) :- t(Y, Ri, X).
inverse_edge_source(Ri, _, X, Y) :- symmetric(Ri), t(X, Ri, Y).
inverse_edge_source(Ri, Rc, X, Y) :- inverse(Ri, R2), R2 \== Rc, t(X, R2, Y).

% ------------------------------------------------------------------ holds: levels 0-2
%!  holds(?S, +R, ?O, -How) is nondet.
%   How is base, dfact or transitive; level-3 (composite) facts are included only by holds_all/4.
holds(S, R, O, base) :- t(S, R, O).
holds(S, R, O, dfact) :- has_level1(R), level1_fact(S, R, O).
holds(S, R, O, transitive) :-
    canonical_transitive(R),
    reach(S, R, O), \+ edge(S, R, O).
holds(S, R, O, transitive) :-
    mirrored_transitive(R, Rc),
    ( nonvar(O) -> tc(O, Rc, S1) ; closure(O, Rc, S1) ),
    S1 = S, \+ edge(S, R, O).
holds(S, R, O, inverse_closure) :-
    inverse(R, Rc), canonical_transitive(Rc), \+ mirrored_transitive(R, Rc),
    ( nonvar(O) -> tc(O, Rc, S1) ; closure(O, Rc, S1) ),
    S1 = S, \+ edge(O, Rc, S), \+ edge(S, R, O).

holds_all(S, R, O, How) :- holds(S, R, O, How).
holds_all(S, R, O, dfact) :- d3(S, R, O).
holds_all(S, R, O, composite(Name, Y)) :-          % on demand, when not materialized
    composite(Name, R1, R2, R),
    ( nonvar(S) -> holds(S, R1, Y, _), holds(Y, R2, O, _)
    ; holds(Y, R2, O, _), holds(S, R1, Y, _) ),
    S \== O.
holds_all(S, R, O, composite_self(Name)) :-       % the chain of no step: S itself holds R2
    composite_self(Name, R2, R),
    holds(S, R2, O, _),
    S \== O.

%   A composite whose first relation is transitive ("located in") also holds over a chain of no
%   step: a country uses its own currency as its towns do.
composite_self(Name, R2, R) :-
    composite(Name, R1, R2, R), transitive(R1), R2 \== R.

% ------------------------------------------------------------------ level 3: composite
%   Each chain is driven from its second relation's facts (Y R2 Z: the countries with a currency), joined
%   with what reaches Y by the first (X R1 Y: read from Y's backward table), so the cost follows the
%   chains that exist rather than every X R1 Y of the KB. The proof keeps the Y that the subject's own
%   enumeration finds first (`chain_premise/6`), as when the chains were enumerated from X.
materialize_composite(Count) :-
    aggregate_all(count,
        ( composite(Name, R1, R2, R3),
          findall((X-Z)-Y, ( holds(Y, R2, Z, _), holds(X, R1, Y, _), X \== Z ), Found),
          msort(Found, Sorted),
          group_pairs_by_key(Sorted, Chains),
          member((X-Z)-Ys, Chains),
          \+ holds(X, R3, Z, _), \+ d3(X, R3, Z),
          chain_premise(Ys, X, R1, R2, Z, Y),
          assertz(d3(X, R3, Z)),
          assertz(dfact(X, R3, Z, 3, rule(composite(Name), [fact(X,R1,Y), fact(Y,R2,Z)])))
        ), Count1),
    aggregate_all(count,
        ( composite_self(Name, R2, R3),
          holds(X, R2, Z, _), X \== Z,
          \+ holds(X, R3, Z, _), \+ d3(X, R3, Z),
          assertz(d3(X, R3, Z)),
          assertz(dfact(X, R3, Z, 3, rule(composite(Name), [fact(X,R2,Z)])))
        ), Count2),
    Count is Count1 + Count2.

%   chain_premise(+Ys, +X, +R1, +R2, +Z, -Y): the link of X's chain to Z: the only one, or of several
%   the first that X's own enumeration meets (base facts, level 1, then the closure in table order).
chain_premise([Y], _, _, _, _, Y) :- !.
chain_premise(_, X, R1, R2, Z, Y) :- once(( holds(X, R1, Y, _), holds(Y, R2, Z, _) )).

% ------------------------------------------------------------------ proofs
%!  proof_of(+S, +R, +O, -Proof) is semidet.
%   A proof tree of a fact that holds at levels 0-3; premises are expanded recursively.
proof_of(S, R, O, Proof) :-
    once(holds_all(S, R, O, How)),
    proof_how(How, S, R, O, Proof).

proof_how(base, S, R, O, fact(S,R,O)).
proof_how(dfact, S, R, O, rule(Family, fact(S,R,O), Proofs)) :-
    once(dfact(S, R, O, _, rule(Family, Premises))),
    maplist(premise_proof, Premises, Proofs).
proof_how(transitive, S, R, O, rule(transitive, fact(S,R,O), Steps)) :-
    ( canonical_transitive(R) -> path(S, R, O, [S], Steps)
    ; mirrored_transitive(R, Rc), path(O, Rc, S, [O], Steps0),
      Steps = [rule(inverse, fact(O,Rc,S), Steps0)]
    ).
proof_how(composite_self(Name), S, R, O, rule(composite(Name), fact(S,R,O), [P])) :-
    composite_self(Name, R2, R),
    holds(S, R2, O, _), !,
    proof_of(S, R2, O, P).
proof_how(composite(Name, Y), S, R, O, rule(composite(Name), fact(S,R,O), [P1, P2])) :-
    composite(Name, R1, R2, R),
    holds(S, R1, Y, _), holds(Y, R2, O, _), !,
    proof_of(S, R1, Y, P1), proof_of(Y, R2, O, P2).
proof_how(inverse_closure, S, R, O, rule(inverse, fact(S,R,O), [Inner])) :-
    inverse(R, Rc), canonical_transitive(Rc),
    path(O, Rc, S, [O], Steps),
    Inner = rule(transitive, fact(O,Rc,S), Steps).

premise_proof(fact(S,R,O), P) :- proof_of(S, R, O, P).

%   path(X, R, Z, Visited, EdgeProofs): one edge proof per hop, shortest hop first.
path(X, R, Z, _, [P]) :-
    edge(X, R, Z), !, edge_proof(X, R, Z, P).
path(X, R, Z, Visited, [P|Ps]) :-
    edge(X, R, Y), \+ memberchk(Y, Visited), tc(Y, R, Z1), Z1 == Z, !,
    edge_proof(X, R, Y, P),
    path(Y, R, Z, [Y|Visited], Ps).

edge_proof(X, R, Y, fact(X,R,Y)) :- t(X, R, Y), !.
edge_proof(X, R, Y, rule(F, fact(X,R,Y), Ps)) :-
    dfact(X, R, Y, 1, rule(F, Premises)), !,
    maplist(premise_proof, Premises, Ps).

% ------------------------------------------------------------------ on demand: same object
same_object_proof(S, R, O, rule(same_object, fact(S,R,O), [P1, P2])) :-
    same_object(R0, R), S \== O,
    holds_all(S, R0, Z, _), holds_all(O, R0, Z, _), !,
    proof_of(S, R0, Z, P1), proof_of(O, R0, Z, P2).

%!  common_object_dict(+S, +R, +O, -Dict) is det.
%   "S and O are both R the same Z" for any relation R (Drowzee's "both part of the same ..."):
%   supported with the first Z both reach at levels 0-3 and a proof of each side; contradicted
%   when R is functional and their values differ; otherwise unknown.
common_object_dict(S, R, O, _{status: supported, object: Z, premises: [D1, D2]}) :-
    S \== O, holds_all(S, R, Z, _), holds_all(O, R, Z, _), !,
    proof_of(S, R, Z, P1), proof_of(O, R, Z, P2),
    proof_dict(P1, D1), proof_dict(P2, D2).
common_object_dict(S, R, O, _{status: contradicted, object: none, premises: [D1, D2]}) :-
    functional(R), S \== O, holds_all(S, R, A, _), holds_all(O, R, B, _), A \== B, !,
    proof_of(S, R, A, P1), proof_of(O, R, B, P2),
    proof_dict(P1, D1), proof_dict(P2, D2).
common_object_dict(_, _, _, _{status: unknown, object: none, premises: []}).

% ------------------------------------------------------------------ on demand: negation
%!  contradiction(+S, +R, +O, -Proof) is semidet.
%   Only from an explicit negative fact (directly or through symmetry / inverse), a functional
%   relation, a functional relation under an inverse or same-object rule, or a disjoint relation
%   that holds between the same two (the mother of S is not its father). Absence is not enough.
contradiction(S, R, O, rule(negation, fact(S,R,O), [negfact(S,R,O)])) :-
    nt(S, R, O), !.
contradiction(S, R, O, rule(negation_symmetric, fact(S,R,O), [negfact(O,R,S)])) :-
    symmetric(R), nt(O, R, S), !.
contradiction(S, R, O, rule(negation_inverse, fact(S,R,O), [negfact(O,Ri,S)])) :-
    inverse(R, Ri), nt(O, Ri, S), !.
contradiction(S, R, O, rule(negation_functional, fact(S,R,O), [P])) :-
    functional(R), holds_all(S, R, O2, _), O2 \== O, !,
    proof_of(S, R, O2, P).
contradiction(S, R, O, rule(negation_inverse_functional, fact(S,R,O), [P])) :-
    inverse(R, Ri), functional(Ri), holds_all(O, Ri, S2, _), S2 \== S, !,
    proof_of(O, Ri, S2, P).
contradiction(S, R, O, rule(negation_same_object, fact(S,R,O), [P1, P2])) :-
    same_object(R0, R), functional(R0),
    holds_all(S, R0, A, _), holds_all(O, R0, B, _), A \== B, !,
    proof_of(S, R0, A, P1), proof_of(O, R0, B, P2).
contradiction(S, R, O, rule(negation_disjoint, fact(S,R,O), [P])) :-
    disjoint(R, R2), holds_all(S, R2, O, _), !,
    proof_of(S, R2, O, P).

%   An irreflexive relation never holds between a thing and itself (nothing is its own father).
contradiction(S, R, S, rule(negation_irreflexive, fact(S,R,S), [])) :-
    irreflexive(R), !.

%   A partition under R (UN member states under located_in): a subject is R-related to at most one cell
%   and no cell to another, so S R O with O a cell is refuted when S is another cell, or S R C holds for
%   a cell C other than O; the inverse (Brazil contains Germany) likewise. Premises: the stored facts that
%   make S (or C) and O cells, and the proof of S R C.
contradiction(S, R, O, rule(negation_partition, fact(S,R,O), Ps)) :-
    cell(R, O, PO), other_cell(S, R, O, Ps0), !, append(Ps0, [PO], Ps).
contradiction(S, R, O, rule(negation_partition, fact(S,R,O), Ps)) :-
    inverse(R, Ri), cell(Ri, S, PS), other_cell(O, Ri, S, Ps0), !, append(Ps0, [PS], Ps).

%   A relation declared complete (its source lists every value of a subject it lists any for: Spain's land
%   neighbours): S R O is refuted when S has R values and none is O, and O is a value of the same kind (the
%   object of a stored R fact, or of the stored fact a composite ending in R reads last). A subject with no
%   value stays unknown. Premises: proofs of up to three of the listed values.
contradiction(S, R, O, rule(negation_complete, fact(S,R,O), Ps)) :-
    complete(R), S \== O, listed_kind(R, O),
    \+ holds_all(S, R, O, _), \+ ( symmetric(R), holds_all(O, R, S, _) ),
    findall(P, limit(3, ( distinct(O2, holds_all(S, R, O2, _)), O2 \== O, proof_of(S, R, O2, P) )), Ps),
    Ps \== [], !.

%   listed_kind(+R, +O): O is a value of R somewhere in the KB (stored, or read last by a composite).
listed_kind(R, O) :- t(_, R, O), !.
listed_kind(R, O) :- symmetric(R), t(O, R, _), !.
listed_kind(R, O) :- composite(_, _, R2, R), t(_, R2, O), !.

%   cell(+R, ?C, -Proof): C is a cell of R's partition, by a stored membership fact.
cell(R, C, fact(C, M, K)) :- partition(R, M, K), t(C, M, K).

%   other_cell(+S, +R, +O, -Premises): S is a cell other than O, or S R C holds for a cell C other than O.
other_cell(S, R, O, [P]) :- S \== O, cell(R, S, P), !.
other_cell(S, R, O, [P, PC]) :-
    holds_all(S, R, C, _), C \== O, cell(R, C, PC), !,
    proof_of(S, R, C, P).

%!  partition_conflicts(+Max, -Conflicts) is det.
%   Up to Max [S, R, C1, C2]: data that breaks a declared partition, a subject (or cell) that reaches two
%   cells under R. A conflict makes the rule refute a fact the KB holds; `drowzee derive` reports them.
partition_conflicts(Max, Conflicts) :-
    findall([S, R, C1, C2],
            limit(Max, ( distinct(R, partition(R, _, _)),
                         distinct(S, ( edge(S, R, _) ; cell(R, S, _) )),
                         findall(C, ( holds_all(S, R, C, _), cell(R, C, _) ), Cs0),
                         ( cell(R, S, _) -> Cs1 = [S|Cs0] ; Cs1 = Cs0 ),
                         sort(Cs1, [C1, C2|_]) )),
            Conflicts).

% ------------------------------------------------------------------ prove
%!  prove(+S, +R, +O, -Status, -Proof) is det.
prove(S, R, O, supported, Proof) :- proof_of(S, R, O, Proof), !.
prove(S, R, O, supported, Proof) :- same_object_proof(S, R, O, Proof), !.
prove(S, R, O, contradicted, Proof) :- contradiction(S, R, O, Proof), !.
prove(_, _, _, unknown, none).

%!  prove_dict(+S, +R, +O, -Dict) is det.  The result as a dict (janus returns a Python dict).
prove_dict(S, R, O, _{status: Status, proof: D}) :-
    prove(S, R, O, Status, P),
    proof_dict(P, D).

%!  prove_batch(+Queries, -Statuses) is det.  Queries: list of (S,R,O); statuses only (fast path).
prove_batch([], []).
prove_batch([Q|Qs], [St|Sts]) :-
    Q =.. [_, S, R, O],
    prove(S, R, O, St, _),
    prove_batch(Qs, Sts).

proof_dict(none, none).
proof_dict(fact(S,R,O), _{rule: fact, fact: [S,R,O]}).
proof_dict(negfact(S,R,O), _{rule: negative_fact, fact: [S,R,O]}).
proof_dict(rule(F, fact(S,R,O), Ps), _{rule: Name, fact: [S,R,O], premises: Ds}) :-
    ( F = composite(C) -> format(atom(Name), "composite:~w", [C]) ; Name = F ),
    maplist(proof_dict, Ps, Ds).

% ------------------------------------------------------------------ test cases (drowzee_core.bench)
%!  case_batch(+Kind, +Seeds, -Cases) is det.
%   Seeds: list of (S, R, O, K) base facts with a choice number K (for negation, K is the
%   distractor entity). For each seed that yields a case of Kind, one dict
%   _{seed: Index, status: supported|contradicted, fact: [S1,R1,O1], proof: ProofDict};
%   the conclusion is proved by Kind's rule at the top of the proof.
case_batch(Kind, Seeds, Cases) :-
    findall(_{seed: I, status: Status, fact: [A,B,C], proof: D},
            ( nth0(I, Seeds, Seed), Seed =.. [_, S, R, O, K],
              once(case_of(Kind, S, R, O, K, Status, fact(A,B,C), P)),
              proof_dict(P, D) ),
            Cases).

pick(K, List, X) :- sort(List, Set), Set \== [], length(Set, N), I is K mod N, nth0(I, Set, X).

case_of(symmetric, S, R, O, _, supported, fact(O,R,S), rule(symmetric, fact(O,R,S), [fact(S,R,O)])) :-
    symmetric(R), S \== O.
case_of(inverse, S, R, O, _, supported, fact(O,Ri,S), rule(inverse, fact(O,Ri,S), [fact(S,R,O)])) :-
    inverse(R, Ri).
case_of(transitive, S, R, O, K, supported, fact(S,R,Z), P) :-
    canonical_transitive(R),
    findall(Z0, ( tc(O, R, Z0), Z0 \== S, \+ edge(S, R, Z0) ), Zs),
    pick(K, Zs, Z),
    proof_how(transitive, S, R, Z, P).
case_of(composite, S, R1, _, K, supported, fact(S,R3,Z), rule(composite(N), fact(S,R3,Z), [P1, P2])) :-
    findall(N0-Y0-Z0-R0,
            ( composite(N0, R1, R2, R0), holds(S, R1, Y0, _), holds(Y0, R2, Z0, _),
              S \== Z0, \+ holds(S, R0, Z0, _) ),
            Cs),
    pick(K, Cs, N-Y-Z-R3),
    composite(N, R1, R2, R3),
    proof_of(S, R1, Y, P1), proof_of(Y, R2, Z, P2).
case_of(same_object, S, R0, Z, K, supported, fact(S,R,X), rule(same_object, fact(S,R,X), [P1, P2])) :-
    same_object(R0, R),
    findall(X0, ( holds_all(X0, R0, Z, _), X0 \== S ), Xs),
    pick(K, Xs, X),
    proof_of(S, R0, Z, P1), proof_of(X, R0, Z, P2).
case_of(negation, S, R, _, K, contradicted, fact(S,R,K), P) :-
    functional(R), prove(S, R, K, St, P), St == contradicted.
case_of(negation_same_object, S, R0, _, K, contradicted, fact(S,R,K), P) :-
    same_object(R0, R), prove(S, R, K, St, P), St == contradicted.

%!  subject_sets(+Pairs, -Sets) is det.
%   For each (R, O): the sorted subjects S of S-R-O among base and level-1 facts (for relations that
%   are neither transitive nor composite results this is every S that holds_all/4 finds).
subject_sets([], []).
subject_sets([P|Ps], [L|Ls]) :-
    P =.. [_, R, O],
    findall(S, ( t(S, R, O) ; has_level1(R), level1_fact(S, R, O) ), L0),
    sort(L0, L),
    subject_sets(Ps, Ls).

% ------------------------------------------------------------------ enumeration for Python
%!  derived_sample(+Family, +Max, -Facts) is det.  Up to Max derived facts of a family as [S,R,O].
derived_sample(Family, Max, Facts) :-
    findall([S,R,O], limit(Max, derived_of(Family, S, R, O)), Facts).

derived_of(symmetric, S, R, O) :- dfact(S, R, O, 1, rule(symmetric, _)).
derived_of(inverse, S, R, O) :- dfact(S, R, O, 1, rule(inverse, _)).
derived_of(transitive, S, R, O) :- canonical_transitive(R), holds(S, R, O, transitive).
derived_of(composite, S, R, O) :- dfact(S, R, O, 3, _).

% ------------------------------------------------------------------ reading fact files (no execution)
%!  read_fact_file(+File, -Items) is det.
%   Reads terms with read_term/3 (which never runs anything) and describes each as a dict:
%   _{line, functor, args, negated} for a fact with atomic arguments, or _{line, error} otherwise.
read_fact_file(File, Items) :-
    setup_call_cleanup(
        open(File, read, S, [encoding(utf8)]),
        read_items(S, Items),
        close(S)).

read_items(S, Items) :-
    catch(read_term(S, T, [term_position(P), double_quotes(string), variable_names(_)]), E, true),
    (   nonvar(E)
    ->  error_line(E, S, Line), message_to_text(E, Msg),
        Items = [_{line: Line, error: Msg}|Rest], read_items(S, Rest)
    ;   T == end_of_file
    ->  Items = []
    ;   stream_position_data(line_count, P, Line),
        describe(T, Line, Item),
        Items = [Item|Rest],
        read_items(S, Rest)
    ).

error_line(error(_, stream(_, Line, _, _)), _, Line) :- !.
error_line(error(_, file(_, Line, _, _)), _, Line) :- !.
error_line(_, S, Line) :- line_count(S, Line).

message_to_text(error(syntax_error(What), _), Text) :- !,
    format(string(Text), "Prolog syntax error: ~w", [What]).
message_to_text(E, Text) :- term_string(E, Text).

describe(T, Line, _{line: Line, error: "directives and rules are not loaded: a fact file holds facts only"}) :-
    ( T = (:- _) ; T = (_ :- _) ; T = (_ --> _) ), !.
describe(T, Line, Item) :-
    ( T = (\+ G) -> Neg = 1 ; T = not(G) -> Neg = 1 ; G = T, Neg = 0 ),
    (   callable(G), G \= [_|_], compound_name_arguments(G, F, Args), maplist(atomic, Args)
    ->  maplist(plain_value, Args, Vals),
        Item = _{line: Line, functor: F, args: Vals, negated: Neg}
    ;   Item = _{line: Line, error: "not a fact with atomic arguments"}
    ).

plain_value(A, V) :- atom(A), !, atom_string(A, V).
plain_value(V, V).
