#!/usr/bin/env escript
main(_) ->
    spawn(fun() -> work([10, 5, 0]) end),
    timer:sleep(300),
    io:format("batch submitted~n").

work(Xs) ->
    [io:format("ratio ~p~n", [100 div X]) || X <- Xs].
