#!/usr/bin/env escript
main(_) ->
    Port = list_to_integer("80a"),
    io:format("port ~p~n", [Port]).
