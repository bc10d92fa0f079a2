%% bot.erl - a Last Card starter bot in Erlang/OTP (21+), standard library only.
%%
%% Build: erlc bot.erl      Run: erl -noshell -pa . -s bot main      Check: lastcard check "erl -noshell -pa . -s bot main"
%%
%% The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
%%   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
%% exits on quit or at the end of input, and treats every other message as information.
%% OTP has a json module only from OTP 27, so a short reader is below: an object is a map with
%% binary keys, an array a list, a string a binary, true/false/null the atoms.
-module(bot).
-export([main/0]).

%% The strategy: your code goes here. Return one element of maps:get(<<"legal">>, Turn). Plays come
%% first in the list, draw or pass last, so the first element plays whenever a card can be played.
%% <<"hand">>, <<"top">>, <<"colour">>, <<"hands">> and the rest are described in protocol/PROTOCOL.md.
choose(Turn) ->
    hd(maps:get(<<"legal">>, Turn)).

main() ->
    ok = io:setopts(standard_io, [binary]),
    loop(),
    halt(0).

loop() ->
    case io:get_line(standard_io, "") of   % a line of any length
        eof -> ok;
        {error, _} -> ok;
        Line ->
            {Msg, _} = value(string:trim(Line)),
            case maps:get(<<"type">>, Msg, null) of
                <<"quit">> -> ok;
                <<"hello">> -> send(<<"{\"type\":\"ready\",\"name\":\"erlang-kit\"}">>), loop();
                <<"turn">> -> send(encode(choose(Msg))), loop();
                <<"error">> ->
                    io:format(standard_error, "erlang-kit: the referee reports a fault: ~ts~n",
                              [maps:get(<<"message">>, Msg, <<>>)]),
                    loop();
                _ -> loop()                  % start, event, round_end, game_end: never answered
            end
    end.

%% io:put_chars on standard_io goes straight to the port: each line leaves at once.
send(Line) -> io:put_chars(standard_io, [Line, $\n]).

%% ---------- a small JSON reader and writer ----------
ws(<<C, Rest/binary>>) when C =:= $\s; C =:= $\t; C =:= $\r; C =:= $\n -> ws(Rest);
ws(Bin) -> Bin.

%% value(Bin) -> {Value, Rest}
value(Bin) -> value1(ws(Bin)).
value1(<<${, Rest/binary>>) -> object(ws(Rest), #{});
value1(<<$[, Rest/binary>>) -> array(ws(Rest), []);
value1(<<$", Rest/binary>>) -> string(Rest, <<>>);
value1(<<"true", Rest/binary>>) -> {true, Rest};
value1(<<"false", Rest/binary>>) -> {false, Rest};
value1(<<"null", Rest/binary>>) -> {null, Rest};
value1(Bin) -> number(Bin, <<>>).

object(<<$}, Rest/binary>>, Map) -> {Map, Rest};
object(<<$", Bin/binary>>, Map) ->
    {Key, AfterKey} = string(Bin, <<>>),
    <<$:, AfterColon/binary>> = ws(AfterKey),
    {Value, AfterValue} = value(AfterColon),
    case ws(AfterValue) of
        <<$,, More/binary>> -> object(ws(More), Map#{Key => Value});
        <<$}, More/binary>> -> {Map#{Key => Value}, More}
    end.

array(<<$], Rest/binary>>, []) -> {[], Rest};
array(Bin, Acc) ->
    {Value, After} = value(Bin),
    case ws(After) of
        <<$,, More/binary>> -> array(ws(More), [Value | Acc]);
        <<$], More/binary>> -> {lists:reverse([Value | Acc]), More}
    end.

string(<<$", Rest/binary>>, Acc) -> {Acc, Rest};
string(<<$\\, $u, _:4/binary, Rest/binary>>, Acc) -> string(Rest, <<Acc/binary, $?>>); % only in names
string(<<$\\, $n, Rest/binary>>, Acc) -> string(Rest, <<Acc/binary, $\n>>);
string(<<$\\, $t, Rest/binary>>, Acc) -> string(Rest, <<Acc/binary, $\t>>);
string(<<$\\, C, Rest/binary>>, Acc) -> string(Rest, <<Acc/binary, C>>);
string(<<C, Rest/binary>>, Acc) -> string(Rest, <<Acc/binary, C>>).

number(<<C, Rest/binary>>, Acc) when C =:= $-; C >= $0, C =< $9 -> number(Rest, <<Acc/binary, C>>);
number(Rest, Acc) -> {binary_to_integer(Acc), Rest}.

encode(Map) when is_map(Map) ->
    Members = [[encode(K), $:, encode(V)] || {K, V} <- maps:to_list(Map)],
    [${, lists:join($,, Members), $}];
encode(List) when is_list(List) -> [$[, lists:join($,, [encode(V) || V <- List]), $]];
encode(Bin) when is_binary(Bin) -> [$", Bin, $"];   % card codes and colours need no escapes
encode(Int) when is_integer(Int) -> integer_to_binary(Int);
encode(Atom) when is_atom(Atom) -> atom_to_binary(Atom, utf8). % true, false, null
