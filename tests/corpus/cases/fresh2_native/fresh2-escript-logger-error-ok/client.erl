#!/usr/bin/env escript
main(_) ->
    logger:error("connection to ~s lost: ~p, reconnecting", ["db1", econnreset]),
    Result = lists:sum([1, 2, 3]),
    io:format("reconnected, sum=~p~n", [Result]).
