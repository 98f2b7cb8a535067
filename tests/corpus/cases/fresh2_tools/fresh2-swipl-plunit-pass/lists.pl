:- use_module(library(plunit)).
double([], []).
double([X|Xs], [Y|Ys]) :- Y is 2*X, double(Xs, Ys).
:- begin_tests(double).
test(empty) :- double([], []).
test(three) :- double([1,2,3], [2,4,6]).
:- end_tests(double).
