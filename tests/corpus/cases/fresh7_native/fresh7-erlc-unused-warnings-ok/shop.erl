-module(shop).
-export([total/1]).

total(Items) ->
    Tax = 0.2,
    lists:sum([P * Q || {P, Q} <- Items]).

old_total(Items) -> length(Items).
