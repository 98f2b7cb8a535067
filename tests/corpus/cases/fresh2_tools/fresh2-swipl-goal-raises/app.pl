main :- X is 10 / 0, format('~w~n', [X]).
