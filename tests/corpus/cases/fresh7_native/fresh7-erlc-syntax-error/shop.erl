-module(shop).
-export([total/1]).

total(Items) ->
    Sum = lists:sum([P * Q || {P, Q} <- Items])
    Sum * 1.2.
