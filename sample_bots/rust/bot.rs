// bot.rs - a Last Card starter bot in Rust (1.63+), standard library only.
//
// Build: rustc -O -o bot bot.rs      Run: ./bot      Check: lastcard check ./bot
//
// The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
//   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
// exits on quit or at the end of input, and treats every other message as information.
// The usual JSON crate (serde_json) needs cargo and a network, so a short reader is below.
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

// ---------- a small JSON value, reader and writer ----------
#[derive(Clone, Debug)]
enum Json {
    Null,
    Bool(bool),
    Number(String), // as written: the referee's numbers are integers
    Str(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(map) => map.get(key).unwrap_or(&Json::Null),
            _ => &Json::Null,
        }
    }
    fn as_str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => "",
        }
    }
    fn items(&self) -> &[Json] {
        match self {
            Json::Array(v) => v,
            _ => &[],
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn peek(&mut self) -> Result<u8, String> {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
        self.s.get(self.i).copied().ok_or_else(|| "unexpected end of the line".to_string())
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek()? != c {
            return Err(format!("expected '{}' at byte {}", c as char, self.i));
        }
        self.i += 1;
        Ok(())
    }
    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'"' => return Ok(String::from_utf8_lossy(&out).into_owned()),
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            out.push(b'?'); // non-ASCII escapes only occur in names: not needed here
                            self.i += 4;
                        }
                        _ => out.push(e), // \" \\ \/
                    }
                }
                _ => out.push(c),
            }
        }
        Err("unterminated string".to_string())
    }
    fn value(&mut self) -> Result<Json, String> {
        match self.peek()? {
            b'{' => {
                self.i += 1;
                let mut map = BTreeMap::new();
                if self.peek()? == b'}' {
                    self.i += 1;
                    return Ok(Json::Object(map));
                }
                loop {
                    let key = self.string()?;
                    self.expect(b':')?;
                    map.insert(key, self.value()?);
                    if self.peek()? == b',' { self.i += 1; } else { break; }
                }
                self.expect(b'}')?;
                Ok(Json::Object(map))
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                if self.peek()? == b']' {
                    self.i += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    if self.peek()? == b',' { self.i += 1; } else { break; }
                }
                self.expect(b']')?;
                Ok(Json::Array(items))
            }
            b'"' => Ok(Json::Str(self.string()?)),
            _ => {
                let start = self.i;
                while self.i < self.s.len() && !b",}] \t\r\n".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                match &self.s[start..self.i] {
                    b"null" => Ok(Json::Null),
                    b"true" => Ok(Json::Bool(true)),
                    b"false" => Ok(Json::Bool(false)),
                    word => Ok(Json::Number(String::from_utf8_lossy(word).into_owned())),
                }
            }
        }
    }
}

fn parse(line: &str) -> Result<Json, String> {
    Reader { s: line.as_bytes(), i: 0 }.value()
}

fn write(v: &Json) -> String {
    match v {
        Json::Null => "null".to_string(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.clone(),
        Json::Str(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
        Json::Array(items) => format!("[{}]", items.iter().map(write).collect::<Vec<_>>().join(",")),
        Json::Object(map) => {
            let members: Vec<String> = map.iter().map(|(k, v)| format!("\"{}\":{}", k, write(v))).collect();
            format!("{{{}}}", members.join(","))
        }
    }
}

// ---------- the strategy: your code goes here ----------
// Return one element of turn.get("legal"). Plays come first in the list, draw or pass last, so the
// first element plays whenever a card can be played. "hand", "top", "colour", "hands" and the rest
// are described in protocol/PROTOCOL.md, "turn".
fn choose(turn: &Json) -> &Json {
    &turn.get("legal").items()[0]
}

// ---------- the loop ----------
fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line, // a line of any length
            Err(_) => break,
        };
        let msg = match parse(&line) {
            Ok(msg) => msg,
            Err(e) => {
                eprintln!("rust-kit: not JSON ({}): {:.80}", e, line);
                continue;
            }
        };
        let reply = match msg.get("type").as_str() {
            "quit" => break,
            "hello" => "{\"type\":\"ready\",\"name\":\"rust-kit\"}".to_string(),
            "turn" => write(choose(&msg)),
            "error" => {
                eprintln!("rust-kit: the referee reports a fault: {}", msg.get("message").as_str());
                continue;
            }
            _ => continue, // start, event, round_end, game_end: information, never answered
        };
        // stdout is line-buffered only on a terminal: flush, the referee is waiting for this line.
        writeln!(out, "{}", reply).and_then(|_| out.flush()).expect("stdout closed");
    }
}
