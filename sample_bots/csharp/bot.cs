// bot.cs - a Last Card starter bot in C#, on Mono with System.Json (Debian's mono-mcs).
//
// Build: mcs -optimize -r:System.Json -out:bot.exe bot.cs      Run: mono bot.exe
// Check: lastcard check "mono bot.exe"
//
// The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
//   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
// exits on quit or at the end of input, and treats every other message as information.
using System;
using System.IO;
using System.Json;

public static class Bot
{
    // The strategy: your code goes here. Return one element of turn["legal"]. Plays come first in the
    // list, draw or pass last, so the first element plays whenever a card can be played. turn["hand"],
    // turn["top"], turn["colour"], turn["hands"] and the rest are described in protocol/PROTOCOL.md.
    static JsonValue Choose(JsonObject turn)
    {
        return turn["legal"][0];
    }

    public static void Main()
    {
        // AutoFlush: every line leaves at once, the referee is waiting for it.
        var output = new StreamWriter(Console.OpenStandardOutput()) { AutoFlush = true, NewLine = "\n" };
        string line;
        while ((line = Console.In.ReadLine()) != null) // a line of any length; null at the end of input
        {
            var msg = (JsonObject)JsonValue.Parse(line);
            string type = msg.ContainsKey("type") ? (string)msg["type"] : "";
            if (type == "quit") break;
            if (type == "hello") output.WriteLine("{\"type\":\"ready\",\"name\":\"csharp-kit\"}");
            else if (type == "turn") output.WriteLine(Choose(msg).ToString());
            else if (type == "error") Console.Error.WriteLine("csharp-kit: the referee reports a fault: " + (string)msg["message"]);
            // start, event, round_end, game_end: information, never answered
        }
    }
}
