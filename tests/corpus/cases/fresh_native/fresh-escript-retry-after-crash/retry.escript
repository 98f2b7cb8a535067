#!/usr/bin/env escript
main(_) ->
    R = run(1),
    io:format("result: ~p~n", [R]).

run(Attempt) ->
    {Pid, Ref} = spawn_monitor(fun() -> exit({result, compute(Attempt)}) end),
    receive
        {'DOWN', Ref, process, Pid, {result, V}} -> V;
        {'DOWN', Ref, process, Pid, Reason} ->
            io:format(standard_error, "worker crashed: ~p, retrying~n", [Reason]),
            run(Attempt + 1)
    end.

compute(1) -> erlang:error({badmatch, timeout});
compute(_) -> 42.
