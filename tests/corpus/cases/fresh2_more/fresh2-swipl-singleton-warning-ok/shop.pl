price(apple, 3).
price(pear, 4).
total(T) :- findall(P, price(Item, P), Ps), sum_list(Ps, T).
main :- total(T), format('total=~w~n', [T]).
unused(X, Y) :- true.
