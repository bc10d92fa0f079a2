// bot.cpp - a Last Card starter bot in C++17, standard library only.
//
// Build: c++ -O2 -std=c++17 -o bot bot.cpp      Run: ./bot      Check: lastcard check ./bot
//
// The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
//   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
// exits on quit or at the end of input, and treats every other message as information.
// C++ has no JSON reader in its standard library, so a short one is below (parse and write back).
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// ---------- a small JSON value, reader and writer ----------
struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool b = false;
    std::string text;                 // a String's value, or a Number's digits as written
    std::vector<Json> items;          // an Array's elements
    std::map<std::string, Json> keys; // an Object's members

    const Json &operator[](const std::string &key) const {
        static const Json missing;
        auto it = keys.find(key);
        return it == keys.end() ? missing : it->second;
    }
    bool is(const char *s) const { return kind == String && text == s; }
};

struct Reader {
    const std::string &s;
    size_t i = 0;
    void ws() { while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++; }
    char peek() { ws(); if (i >= s.size()) throw std::runtime_error("unexpected end"); return s[i]; }
    void expect(char c) { if (peek() != c) throw std::runtime_error(std::string("expected ") + c); i++; }
    std::string str() {
        expect('"');
        std::string out;
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c == '\\' && i < s.size()) {
                char e = s[i++];
                switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': out += '?'; i += 4; break; // non-ASCII escapes only occur in names: not needed here
                default: out += e;                    // \" \\ \/
                }
            } else out += c;
        }
        i++; // the closing quote
        return out;
    }
    Json value() {
        Json v;
        char c = peek();
        if (c == '{') {
            v.kind = Json::Object; i++;
            if (peek() == '}') { i++; return v; }
            for (;;) {
                std::string k = str();
                expect(':');
                v.keys[k] = value();
                if (peek() != ',') break;
                i++;
            }
            expect('}');
        } else if (c == '[') {
            v.kind = Json::Array; i++;
            if (peek() == ']') { i++; return v; }
            for (;;) {
                v.items.push_back(value());
                if (peek() != ',') break;
                i++;
            }
            expect(']');
        } else if (c == '"') {
            v.kind = Json::String; v.text = str();
        } else {
            size_t start = i;
            while (i < s.size() && std::string(",}] \t\r\n").find(s[i]) == std::string::npos) i++;
            v.text = s.substr(start, i - start);
            if (v.text == "true" || v.text == "false") { v.kind = Json::Bool; v.b = v.text == "true"; }
            else if (v.text != "null") v.kind = Json::Number;
        }
        return v;
    }
};

std::string write(const Json &v) {
    switch (v.kind) {
    case Json::Null: return "null";
    case Json::Bool: return v.b ? "true" : "false";
    case Json::Number: return v.text;
    case Json::String: {
        std::string out = "\"";
        for (char c : v.text) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        return out + "\"";
    }
    case Json::Array: {
        std::string out = "[";
        for (size_t k = 0; k < v.items.size(); k++) out += (k ? "," : "") + write(v.items[k]);
        return out + "]";
    }
    case Json::Object: {
        std::string out = "{";
        for (const auto &kv : v.keys) out += (out.size() > 1 ? ",\"" : "\"") + kv.first + "\":" + write(kv.second);
        return out + "}";
    }
    }
    return "null";
}

// ---------- the strategy: your code goes here ----------
// Return one element of turn["legal"]. Plays come first in the list, draw or pass last, so the
// first element plays whenever a card can be played. turn["hand"], turn["top"], turn["colour"],
// turn["hands"] and the rest are described in protocol/PROTOCOL.md, "turn".
const Json &choose(const Json &turn) {
    return turn["legal"].items.front();
}

// ---------- the loop ----------
int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {     // reads a line of any length
        Json msg;
        try {
            Reader reader{line};
            msg = reader.value();
        } catch (const std::exception &e) {
            std::cerr << "cpp-kit: not JSON (" << e.what() << "): " << line.substr(0, 80) << std::endl;
            continue;
        }
        const Json &type = msg["type"];
        if (type.is("quit")) break;
        if (type.is("hello")) {
            std::cout << "{\"type\":\"ready\",\"name\":\"cpp-kit\"}" << std::endl; // endl flushes
        } else if (type.is("turn")) {
            std::cout << write(choose(msg)) << std::endl;
        } else if (type.is("error")) {
            std::cerr << "cpp-kit: the referee reports a fault: " << msg["message"].text << std::endl;
        }
        // start, event, round_end, game_end: information, never answered
    }
    return 0;
}
