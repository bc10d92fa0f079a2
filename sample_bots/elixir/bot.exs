# bot.exs - a Last Card starter bot in Elixir (1.12+), standard library only.
#
# Run: elixir bot.exs      Check: lastcard check "elixir bot.exs"
#
# The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
#   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
# exits on quit or at the end of input, and treats every other message as information.
# Elixir has a JSON module only from 1.18 (Jason is a Hex package), so a short reader is below:
# an object is a map with string keys, an array a list, true/false/nil as in Elixir.

defmodule Json do
  @moduledoc "A small JSON reader and writer, enough for the protocol."

  def decode(text) do
    {value, _rest} = value(text)
    value
  end

  defp ws(<<c, rest::binary>>) when c in ~c" \t\r\n", do: ws(rest)
  defp ws(bin), do: bin

  defp value(bin), do: value1(ws(bin))
  defp value1("{" <> rest), do: object(ws(rest), %{})
  defp value1("[" <> rest), do: array(ws(rest), [])
  defp value1("\"" <> rest), do: string(rest, "")
  defp value1("true" <> rest), do: {true, rest}
  defp value1("false" <> rest), do: {false, rest}
  defp value1("null" <> rest), do: {nil, rest}
  defp value1(bin) do
    {int, rest} = Integer.parse(bin)
    {int, rest}
  end

  defp object("}" <> rest, map), do: {map, rest}
  defp object("\"" <> bin, map) do
    {key, after_key} = string(bin, "")
    ":" <> after_colon = ws(after_key)
    {val, after_value} = value(after_colon)
    case ws(after_value) do
      "," <> more -> object(ws(more), Map.put(map, key, val))
      "}" <> more -> {Map.put(map, key, val), more}
    end
  end

  defp array("]" <> rest, []), do: {[], rest}
  defp array(bin, acc) do
    {val, after_value} = value(bin)
    case ws(after_value) do
      "," <> more -> array(ws(more), [val | acc])
      "]" <> more -> {Enum.reverse([val | acc]), more}
    end
  end

  defp string("\"" <> rest, acc), do: {acc, rest}
  defp string(<<"\\u", _::binary-size(4), rest::binary>>, acc), do: string(rest, acc <> "?") # only in names
  defp string("\\n" <> rest, acc), do: string(rest, acc <> "\n")
  defp string("\\t" <> rest, acc), do: string(rest, acc <> "\t")
  defp string(<<?\\, c, rest::binary>>, acc), do: string(rest, <<acc::binary, c>>)
  defp string(<<c, rest::binary>>, acc), do: string(rest, <<acc::binary, c>>)

  def encode(map) when is_map(map),
    do: "{" <> Enum.map_join(map, ",", fn {k, v} -> encode(k) <> ":" <> encode(v) end) <> "}"
  def encode(list) when is_list(list), do: "[" <> Enum.map_join(list, ",", &encode/1) <> "]"
  def encode(text) when is_binary(text), do: "\"" <> text <> "\"" # card codes and colours need no escapes
  def encode(nil), do: "null"
  def encode(other), do: to_string(other) # integers, true, false
end

defmodule Bot do
  @moduledoc "The bot: the loop, and the strategy in choose/1."

  # The strategy: your code goes here. Return one element of turn["legal"]. Plays come first in the
  # list, draw or pass last, so the first element plays whenever a card can be played. turn["hand"],
  # turn["top"], turn["colour"], turn["hands"] and the rest are described in protocol/PROTOCOL.md.
  def choose(turn), do: hd(turn["legal"])

  # IO.puts on stdio goes straight to the port: each line leaves at once.
  defp send_line(line), do: IO.puts(line)

  def loop do
    case IO.binread(:stdio, :line) do # a line of any length
      :eof -> :ok
      {:error, _} -> :ok
      line ->
        msg = Json.decode(line)
        case msg["type"] do
          "quit" -> :ok
          "hello" -> send_line(~s({"type":"ready","name":"elixir-kit"})) && loop()
          "turn" -> send_line(Json.encode(choose(msg))) && loop()
          "error" -> IO.puts(:stderr, "elixir-kit: the referee reports a fault: #{msg["message"]}") && loop()
          _ -> loop() # start, event, round_end, game_end: information, never answered
        end
    end
  end
end

Bot.loop()
