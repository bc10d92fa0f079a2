{ bot.pas - a Last Card starter bot in Free Pascal, with fpjson (the JSON units of its FCL).

  Build: fpc -O2 bot.pas      Run: ./bot      Check: lastcard check ./bot

  The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
    hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
  exits on quit or at the end of input, and treats every other message as information. }
program Bot;

{$mode objfpc}{$H+}  { H+: strings of any length, so a line of any length is read whole }

uses
  SysUtils, fpjson, jsonparser;

{ The strategy: your code goes here. Return one element of Turn.Arrays['legal']. Plays come first
  in the list, draw or pass last, so the first element plays whenever a card can be played.
  Turn.Arrays['hand'], Turn.Strings['top'], Turn.Arrays['hands'] and the rest are described in
  protocol/PROTOCOL.md, "turn". }
function Choose(Turn: TJSONObject): TJSONData;
begin
  Result := Turn.Arrays['legal'].Items[0];
end;

{ Write one line and flush it: the referee is waiting for it. }
procedure Send(const Text: string);
begin
  WriteLn(Text);
  Flush(Output);
end;

var
  Line, Kind: string;
  Msg: TJSONData;
begin
  while not EOF(Input) do
  begin
    ReadLn(Line);
    try
      Msg := GetJSON(Line);
    except
      on E: Exception do
      begin
        WriteLn(StdErr, 'pascal-kit: not JSON (', E.Message, '): ', Copy(Line, 1, 80));
        Continue;
      end;
    end;
    Kind := TJSONObject(Msg).Get('type', '');
    if Kind = 'quit' then
      Break
    else if Kind = 'hello' then
      Send('{"type":"ready","name":"pascal-kit"}')
    else if Kind = 'turn' then
      Send(Choose(TJSONObject(Msg)).FormatJSON([foSingleLineArray, foSingleLineObject, foSkipWhiteSpace]))
    else if Kind = 'error' then
      WriteLn(StdErr, 'pascal-kit: the referee reports a fault: ', TJSONObject(Msg).Get('message', ''));
    { start, event, round_end, game_end: information, never answered }
    Msg.Free;
  end;
end.
