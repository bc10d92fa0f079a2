-- bot.lua - a Last Card starter bot in Lua 5.1-5.4, no modules.
--
-- Run: lua bot.lua      Check: lastcard check "lua bot.lua"
--
-- The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
--   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
-- exits on quit or at the end of input, and treats every other message as information.
-- Lua has no JSON reader of its own, so a short one is below (objects and arrays are tables;
-- an array remembers that it is one, so it is written back as an array).

local json = {}

local function skip_ws(s, i) return s:find("[^ \t\r\n]", i) or #s + 1 end

local escapes = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }

local function read_string(s, i) -- s:sub(i, i) is the opening quote
  local out, j = {}, i + 1
  while true do
    local c = s:sub(j, j)
    if c == "" then error("unterminated string") end
    if c == '"' then return table.concat(out), j + 1 end
    if c == "\\" then
      local e = s:sub(j + 1, j + 1)
      if e == "u" then out[#out + 1] = "?"; j = j + 6 -- non-ASCII escapes only occur in names
      else out[#out + 1] = escapes[e] or e; j = j + 2 end
    else out[#out + 1] = c; j = j + 1 end
  end
end

local function read_value(s, i)
  i = skip_ws(s, i)
  local c = s:sub(i, i)
  if c == "{" then
    local obj = {}
    i = skip_ws(s, i + 1)
    if s:sub(i, i) == "}" then return obj, i + 1 end
    while true do
      local key; key, i = read_string(s, skip_ws(s, i))
      i = skip_ws(s, i) + 1 -- the ':'
      obj[key], i = read_value(s, i)
      i = skip_ws(s, i)
      if s:sub(i, i) == "}" then return obj, i + 1 end
      i = i + 1 -- the ','
    end
  elseif c == "[" then
    local arr = setmetatable({}, { is_array = true })
    i = skip_ws(s, i + 1)
    if s:sub(i, i) == "]" then return arr, i + 1 end
    while true do
      arr[#arr + 1], i = read_value(s, i)
      i = skip_ws(s, i)
      if s:sub(i, i) == "]" then return arr, i + 1 end
      i = i + 1
    end
  elseif c == '"' then return read_string(s, i)
  else
    local word = s:match("^[^,%]} \t\r\n]+", i)
    if not word then error("unexpected end of the line") end
    local value
    if word == "true" then value = true elseif word == "false" then value = false
    elseif word ~= "null" then value = tonumber(word) end -- null is nil: the key is left out
    return value, i + #word
  end
end

function json.decode(s) return (read_value(s, 1)) end

function json.encode(v)
  local t = type(v)
  if t == "string" then return '"' .. v:gsub('[%c"\\]', function(ch) return string.format("\\u%04x", ch:byte()) end) .. '"'
  elseif t == "number" then return v % 1 == 0 and string.format("%d", v) or tostring(v) -- 7, never 7.0
  elseif t == "boolean" then return tostring(v)
  elseif t == "table" then
    local parts = {}
    if (getmetatable(v) or {}).is_array then
      for _, item in ipairs(v) do parts[#parts + 1] = json.encode(item) end
      return "[" .. table.concat(parts, ",") .. "]"
    end
    for key, item in pairs(v) do parts[#parts + 1] = json.encode(key) .. ":" .. json.encode(item) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return "null"
end

-- The strategy: your code goes here. Return one element of turn.legal. Plays come first in the
-- list, draw or pass last, so the first element plays whenever a card can be played. turn.hand,
-- turn.top, turn.colour, turn.hands and the rest are described in protocol/PROTOCOL.md, "turn".
local function choose(turn)
  return turn.legal[1]
end

local function send(message)
  io.stdout:write(json.encode(message), "\n")
  io.stdout:flush() -- the referee is waiting for this line
end

for line in io.lines() do -- a line of any length
  local ok, msg = pcall(json.decode, line)
  if not ok or type(msg) ~= "table" then
    io.stderr:write("lua-kit: not JSON: ", line:sub(1, 80), "\n")
  elseif msg.type == "quit" then break
  elseif msg.type == "hello" then send({ type = "ready", name = "lua-kit" })
  elseif msg.type == "turn" then send(choose(msg))
  elseif msg.type == "error" then io.stderr:write("lua-kit: the referee reports a fault: ", msg.message, "\n")
  end -- start, event, round_end, game_end: information, never answered
end
