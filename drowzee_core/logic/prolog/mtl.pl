/*  Drowzee Triangulator: Metric Temporal Logic over sets of year intervals.

    A formula arrives as a program of integer rows (see mtl_encode.py):
        row(Node, Op, A, B, C1, C2)   -- janus passes each as -(Node, Op, A, B, C1, C2)
    Op: 0 atom (A = event id), 1 next, 2 finally[A,B], 3 globally[A,B], 4 until[A,B](C1, C2),
        5 neg, 6 conj, 7 disj.  C1/C2 are child node ids, always evaluated before their parent.
    Every value is an interval set in normal form: a sorted list of S-E (closed, S =< E), disjoint
    and with no two adjacent (E1 + 1 < S2). Events are event(Id, S, E) facts (any order, overlaps
    allowed: the cross product of an event's begins and ends); an atom's set is their union.
*/
:- module(drowzee_mtl, []).

:- dynamic event/3.

reset_events :- retractall(event(_,_,_)).

%!  load_events(+Rows) is det.
%   Rows: list of (Id, Start, End) tuples.
load_events([]).
load_events([Row|Rows]) :-
    Row =.. [_, Id, S, E],
    assertz(event(Id, S, E)),
    load_events(Rows).

%!  eval_batch(+Programs, +Lo, +Hi, -Results) is det.
%   Results: one list of [S, E] pairs per program (the root node's set), horizon [Lo, Hi].
eval_batch([], _, _, []).
eval_batch([P|Ps], Lo, Hi, [R|Rs]) :-
    eval_program(P, Lo, Hi, Set),
    findall([S,E], member(S-E, Set), R),
    eval_batch(Ps, Lo, Hi, Rs).

eval_program(Rows, Lo, Hi, Root) :-
    empty_assoc(A0),
    eval_rows(Rows, Lo, Hi, A0, A, -1, Last),
    get_assoc(Last, A, Root).

eval_rows([], _, _, A, A, Last, Last).
eval_rows([Row|Rows], Lo, Hi, A0, A, _, Last) :-
    Row =.. [_, N, Op, X, Y, C1, C2],
    ( C1 >= 0, Op > 0 -> get_assoc(C1, A0, V1) ; V1 = [] ),
    ( Op >= 4, Op =\= 5 -> get_assoc(C2, A0, V2) ; V2 = [] ),
    op(Op, X, Y, V1, V2, Lo, Hi, V),
    put_assoc(N, A0, V, A1),
    eval_rows(Rows, Lo, Hi, A1, A, N, Last).

op(0, Id, _, _, _, _, _, V) :- findall(S-E, (event(Id, S, E), S =< E), Raw), normalize(Raw, V).
op(1, _, _, V1, _, _, _, V) :- shift(V1, -1, -1, V).
op(2, A, B, V1, _, _, _, V) :- DS is -B, DE is -A, shift(V1, DS, DE, V).
op(3, A, B, V1, _, _, _, V) :- DS is -A, DE is -B, shift(V1, DS, DE, V).
op(4, A, B, V1, V2, _, _, V) :- until(A, B, V1, V2, V).
op(5, _, _, V1, _, Lo, Hi, V) :- complement(V1, Lo, Hi, V).
op(6, _, _, V1, V2, _, _, V) :- intersect(V1, V2, V).
op(7, _, _, V1, V2, _, _, V) :- append(V1, V2, U), normalize(U, V).

%!  normalize(+Intervals, -Set) is det.
normalize(Raw, Set) :-
    msort(Raw, Sorted),
    merge_sorted(Sorted, Set).

merge_sorted([], []).
merge_sorted([S-E|T], Out) :- merge_from(T, S, E, Out).

merge_from([], S, E, [S-E]).
merge_from([S2-E2|T], S, E, Out) :-
    (   S2 =< E + 1
    ->  E3 is max(E, E2), merge_from(T, S, E3, Out)
    ;   Out = [S-E|Rest], merge_from(T, S2, E2, Rest)
    ).

%   shift: [S+DS, E+DE], dropping intervals that become empty; order is kept, adjacency may appear.
shift(In, DS, DE, Out) :-
    findall(S1-E1, (member(S-E, In), S1 is S+DS, E1 is E+DE, S1 =< E1), Raw),
    normalize(Raw, Out).

%   complement within [Lo, Hi] of a normalized set.
complement(Set, Lo, Hi, Out) :-
    complement_(Set, Lo, Hi, Out).

complement_([], From, Hi, Out) :-
    ( From =< Hi -> Out = [From-Hi] ; Out = [] ).
complement_([S-E|T], From, Hi, Out) :-
    Gap is min(S - 1, Hi),
    Next is max(From, E + 1),
    (   From =< Gap
    ->  Out = [From-Gap|Rest]
    ;   Out = Rest
    ),
    complement_(T, Next, Hi, Rest).

%   intersection of two normalized sets (a merge sweep).
intersect([], _, []) :- !.
intersect(_, [], []) :- !.
intersect([S1-E1|T1], [S2-E2|T2], Out) :-
    S is max(S1, S2), E is min(E1, E2),
    ( S =< E -> Out = [S-E|Rest] ; Out = Rest ),
    (   E1 < E2
    ->  intersect(T1, [S2-E2|T2], Rest)
    ;   intersect([S1-E1|T1], T2, Rest)
    ).

%   Until[A,B](F, G): see mtl_encode.py for the derivation.
until(A, B, F, G, Out) :-
    ( A =:= 0 -> Base = G ; Base = [] ),
    A1 is max(A, 1),
    (   B >= A1
    ->  findall(L-H,
                ( member(S-E, F), member(P-Q, G),
                  JL is max(P, S + 1), JH is min(Q, E + 1), JL =< JH,
                  L is max(JL - B, S), H is min(JH - A1, E), L =< H ),
                Raw)
    ;   Raw = []
    ),
    append(Base, Raw, All),
    normalize(All, Out).
