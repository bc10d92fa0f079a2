// Bot.java - a sample Last Card bot in Java 17, standard library only.
// Run: java Bot.java   (the referee talks to it over stdin/stdout, see protocol/PROTOCOL.md)
//
// It answers only two messages:
//   hello -> ready
//   turn  -> one element of the turn's "legal" array, copied back unchanged
//            (every element is already a complete, valid answer with the right id)
// It exits on "quit" or end of input and ignores every other message.
// There is no JSON library: a few small methods walk the raw text instead.
// (Startup matters: no regex, String.format, lambdas or streams here.)
import java.io.*;
import java.nio.charset.StandardCharsets;

public class Bot {
    static final String READY =
        "{\"type\":\"ready\",\"name\":\"java-sample\",\"author\":\"lastcard\",\"version\":\"1\"}";

    public static void main(String[] args) throws IOException {
        // ISO-8859-1 turns each byte into one char and back, so the answer we echo is
        // byte for byte the one the referee sent (JSON syntax itself is plain ASCII).
        BufferedReader in = new BufferedReader(
            new InputStreamReader(System.in, StandardCharsets.ISO_8859_1), 1 << 16);
        Writer out = new BufferedWriter(new OutputStreamWriter(
            new FileOutputStream(FileDescriptor.out), StandardCharsets.ISO_8859_1), 1 << 16);
        String line;
        while ((line = in.readLine()) != null) {     // readLine drops "\n" and "\r\n"
            int type = findKey(line, 0, "type");
            if (isStr(line, type, "quit", false)) break;
            if (isStr(line, type, "hello", false)) reply(out, READY, 0, READY.length());
            else if (isStr(line, type, "turn", false)) playTurn(out, line);
            // start, event, round_end, game_end, error, ...: information only, never answered
        }
        out.flush();
    }

    /** Write one answer line and flush at once: the referee is waiting for it. */
    static void reply(Writer out, String s, int from, int to) throws IOException {
        out.write(s, from, to - from);
        out.write('\n');
        out.flush();
    }

    /** Answer a turn: pick the best-scoring element of "legal" and echo it unchanged. */
    static void playTurn(Writer out, String msg) throws IOException {
        int hand = findKey(msg, 0, "hand"), p = findKey(msg, 0, "legal");
        int best = -1, bestEnd = -1, bestScore = -1;
        if (at(msg, p) != '[') return;
        for (p = ws(msg, p + 1); at(msg, p) == '{'; p = ws(msg, p + 1)) {
            int end = skipValue(msg, p), s = score(msg, p, hand);
            if (s > bestScore) { bestScore = s; best = p; bestEnd = end; }
            p = ws(msg, end);
            if (at(msg, p) != ',') break;
        }
        if (best >= 0) reply(out, msg, best, bestEnd);
        else System.err.println("java-sample: turn without legal answers");
    }

    /** Score one legal answer (the object at e): the highest score is played.
     *  Plays beat draw and pass, plays without a wild beat plays with one, more cards
     *  beat fewer, and when a colour is named, the colour we hold most wins. */
    static int score(String s, int e, int hand) {
        int type = findKey(s, e, "type"), score = 0;
        if (isStr(s, type, "play", false)) {
            int cards = 0;
            boolean wild = false;
            int p = findKey(s, e, "cards");
            if (at(s, p) == '[') {
                for (p = ws(s, p + 1); at(s, p) == '"'; p = ws(s, p + 1)) {
                    cards++;
                    if (isStr(s, p, "wild", true)) wild = true;   // "wild" or "wild4"
                    p = ws(s, skipValue(s, p));
                    if (at(s, p) != ',') break;
                }
            }
            score = 10000 + (wild ? 0 : 5000) + 100 * cards;
        } else if (isStr(s, type, "colour", false)) score = 1000;   // phase "colour": only these
        else if (isStr(s, type, "draw", false)) score = 20;
        else if (isStr(s, type, "pass", false)) score = 10;

        int colour = findKey(s, e, "colour");                        // wild play or colour answer
        if (at(s, colour) == '"') {
            int end = s.indexOf('"', colour + 1);
            if (end > 0) score += colourCount(s, hand, s.substring(colour + 1, end));
        }
        int call = findKey(s, e, "call");                            // arcade last-card call: keep it
        if (call >= 0 && s.startsWith("true", call)) score += 1;
        return score;
    }

    /** How many cards in the hand array (at index hand) have this colour ("red:7" is "red")? */
    static int colourCount(String s, int hand, String colour) {
        int count = 0, n = colour.length();
        if (at(s, hand) != '[') return 0;
        for (int p = ws(s, hand + 1); at(s, p) == '"'; p = ws(s, p + 1)) {
            if (s.startsWith(colour, p + 1) && at(s, p + 1 + n) == ':') count++;
            p = ws(s, skipValue(s, p));
            if (at(s, p) != ',') break;
        }
        return count;
    }

    // ---------- a tiny JSON scanner: indices into one line, -1 for "not found" ----------

    static char at(String s, int i) { return i >= 0 && i < s.length() ? s.charAt(i) : 0; }

    static int ws(String s, int i) {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
        return i;
    }

    /** Index just past the JSON value at i: a string, object, array or scalar. Strings are
     *  tracked so that braces or escaped quotes inside them do not confuse the depth count. */
    static int skipValue(String s, int i) {
        char c = at(s, i);
        if (c != '"' && c != '{' && c != '[') {
            while (i < s.length() && ",}] \t\r\n".indexOf(s.charAt(i)) < 0) i++;
            return i;
        }
        int depth = 0;
        boolean inStr = false;
        for (; i < s.length(); i++) {
            c = s.charAt(i);
            if (inStr) {
                if (c == '\\') i++;                                  // skip the escaped char
                else if (c == '"') { inStr = false; if (depth == 0) return i + 1; }
            } else if (c == '"') inStr = true;
            else if (c == '{' || c == '[') depth++;
            else if ((c == '}' || c == ']') && --depth == 0) return i + 1;
        }
        return s.length();                                           // truncated input
    }

    /** In the object at obj, the index of the value of member key (own members only,
     *  in any order), or -1. */
    static int findKey(String s, int obj, String key) {
        int p = ws(s, obj);
        if (at(s, p) != '{') return -1;
        for (p = ws(s, p + 1); at(s, p) == '"'; p = ws(s, p + 1)) {
            int k = p + 1;
            p = skipValue(s, p);                                     // just past the key's quote
            int v = ws(s, p);
            if (at(s, v) != ':') return -1;
            v = ws(s, v + 1);
            if (p - k - 1 == key.length() && s.startsWith(key, k)) return v;
            p = ws(s, skipValue(s, v));
            if (at(s, p) != ',') return -1;
        }
        return -1;
    }

    /** Is the value at i the JSON string word (or, with prefix, a string starting with it)? */
    static boolean isStr(String s, int i, String word, boolean prefix) {
        return at(s, i) == '"' && s.startsWith(word, i + 1)
            && (prefix || at(s, i + 1 + word.length()) == '"');
    }
}
