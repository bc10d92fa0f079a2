(* bot.ml - a Last Card starter bot in OCaml (4.08+), standard library only.

   Build: ocamlopt -o bot bot.ml      Run: ./bot      Check: lastcard check ./bot

   The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
     hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
   exits on quit or at the end of input, and treats every other message as information.
   The usual JSON library (Yojson) is an opam package, so a short reader is below. *)

type json =
  | Null
  | Bool of bool
  | Number of string (* as written: the referee's numbers are integers *)
  | String of string
  | Array of json list
  | Object of (string * json) list

exception Bad_json of string

(* Read the JSON value at the start of s. *)
let parse (s : string) : json =
  let i = ref 0 in
  let n = String.length s in
  let rec ws () = if !i < n && String.contains " \t\r\n" s.[!i] then (incr i; ws ()) in
  let peek () = ws (); if !i >= n then raise (Bad_json "unexpected end") else s.[!i] in
  let expect c = if peek () <> c then raise (Bad_json (Printf.sprintf "expected %c" c)) else incr i in
  let str () =
    expect '"';
    let b = Buffer.create 16 in
    while !i < n && s.[!i] <> '"' do
      (if s.[!i] = '\\' && !i + 1 < n then begin
         incr i;
         match s.[!i] with
         | 'n' -> Buffer.add_char b '\n'
         | 't' -> Buffer.add_char b '\t'
         | 'r' -> Buffer.add_char b '\r'
         | 'u' -> Buffer.add_char b '?'; i := !i + 4 (* non-ASCII escapes only occur in names *)
         | c -> Buffer.add_char b c
       end else Buffer.add_char b s.[!i]);
      incr i
    done;
    incr i;
    Buffer.contents b
  in
  (* The items of an object or array up to close, each read by item. *)
  let items close item =
    if peek () = close then (incr i; [])
    else
      let rec more acc =
        let acc = item () :: acc in
        if peek () = ',' then (incr i; more acc) else (expect close; List.rev acc)
      in
      more []
  in
  let rec value () =
    match peek () with
    | '{' -> incr i; Object (items '}' (fun () -> let k = str () in expect ':'; (k, value ())))
    | '[' -> incr i; Array (items ']' value)
    | '"' -> String (str ())
    | _ ->
      let start = !i in
      while !i < n && not (String.contains ",}] \t\r\n" s.[!i]) do incr i done;
      (match String.sub s start (!i - start) with
       | "null" -> Null
       | "true" -> Bool true
       | "false" -> Bool false
       | word -> Number word)
  in
  value ()

let rec write = function
  | Null -> "null"
  | Bool b -> string_of_bool b
  | Number w -> w
  | String s -> "\"" ^ String.escaped s ^ "\""
  | Array l -> "[" ^ String.concat "," (List.map write l) ^ "]"
  | Object m -> "{" ^ String.concat "," (List.map (fun (k, v) -> "\"" ^ k ^ "\":" ^ write v) m) ^ "}"

(* A member of an object (Null when absent). *)
let member key = function Object m -> (try List.assoc key m with Not_found -> Null) | _ -> Null
let to_string = function String s -> s | _ -> ""
let to_list = function Array l -> l | _ -> []

(* The strategy: your code goes here. Return one element of member "legal" turn. Plays come first
   in the list, draw or pass last, so the first element plays whenever a card can be played.
   member "hand", member "top", member "colour", member "hands" and the rest are described in
   protocol/PROTOCOL.md, "turn". *)
let choose (turn : json) : json = List.hd (to_list (member "legal" turn))

(* Write one line and flush it: the referee is waiting for it. *)
let send line = print_string line; print_newline ()

let () =
  try
    while true do
      let line = input_line stdin in (* a line of any length *)
      match parse line with
      | exception Bad_json e -> prerr_endline ("ocaml-kit: not JSON (" ^ e ^ ")")
      | msg ->
        match to_string (member "type" msg) with
        | "quit" -> raise Exit
        | "hello" -> send "{\"type\":\"ready\",\"name\":\"ocaml-kit\"}"
        | "turn" -> send (write (choose msg))
        | "error" -> prerr_endline ("ocaml-kit: the referee reports a fault: " ^ to_string (member "message" msg))
        | _ -> () (* start, event, round_end, game_end: information, never answered *)
    done
  with End_of_file | Exit -> ()
