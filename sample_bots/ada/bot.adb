--  bot.adb - a Last Card starter bot in Ada 2012, standard library only.
--
--  Build: gnatmake -O2 bot.adb      Run: ./bot      Check: lastcard check ./bot
--
--  The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
--    hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
--  exits on quit or at the end of input, and treats every other message as information.
--  GNATCOLL.JSON is a separate library, so a short scanner is below: it finds a member of an
--  object and the extent of a value in the line's text, and an answer is written back as it came.
with Ada.Strings.Unbounded; use Ada.Strings.Unbounded;
with Ada.Text_IO; use Ada.Text_IO;
with Ada.Text_IO.Text_Streams;

procedure Bot is

   function Is_Space (C : Character) return Boolean is
     (C = ' ' or else C = ASCII.HT or else C = ASCII.CR or else C = ASCII.LF);

   --  The first position at or after I that is not white space.
   function Skip_Ws (S : String; I : Positive) return Positive is
      P : Positive := I;
   begin
      while P <= S'Last and then Is_Space (S (P)) loop
         P := P + 1;
      end loop;
      return P;
   end Skip_Ws;

   --  The position just past the value that starts at I (a string, object, array or scalar).
   function Skip_Value (S : String; I : Positive) return Positive is
      P      : Positive := I;
      Depth  : Natural  := 0;
      In_Str : Boolean  := False;
   begin
      if S (I) /= '"' and then S (I) /= '{' and then S (I) /= '[' then
         while P <= S'Last and then S (P) /= ',' and then S (P) /= '}' and then S (P) /= ']'
           and then not Is_Space (S (P))
         loop
            P := P + 1;
         end loop;
         return P;
      end if;
      while P <= S'Last loop
         if In_Str then
            if S (P) = '\' then
               P := P + 1;                    --  the escaped character
            elsif S (P) = '"' then
               In_Str := False;
               if Depth = 0 then
                  return P + 1;
               end if;
            end if;
         elsif S (P) = '"' then
            In_Str := True;
         elsif S (P) = '{' or else S (P) = '[' then
            Depth := Depth + 1;
         elsif S (P) = '}' or else S (P) = ']' then
            Depth := Depth - 1;
            if Depth = 0 then
               return P + 1;
            end if;
         end if;
         P := P + 1;
      end loop;
      return P;
   end Skip_Value;

   --  In the object at position Obj, the position of the value of member Key (0 if there is none).
   function Find_Key (S : String; Obj : Positive; Key : String) return Natural is
      P : Positive := Skip_Ws (S, Obj);
      K, V : Positive;
   begin
      if P > S'Last or else S (P) /= '{' then
         return 0;
      end if;
      P := Skip_Ws (S, P + 1);
      while P <= S'Last and then S (P) = '"' loop
         K := P;
         P := Skip_Value (S, P);               --  just past the key's closing quote
         V := Skip_Ws (S, Skip_Ws (S, P) + 1); --  past the ':'
         if S (K .. P - 1) = '"' & Key & '"' then
            return V;
         end if;
         P := Skip_Ws (S, Skip_Value (S, V));
         exit when P > S'Last or else S (P) /= ',';
         P := Skip_Ws (S, P + 1);
      end loop;
      return 0;
   end Find_Key;

   --  The string value at position V, without its quotes ("" if it is not a string).
   function String_At (S : String; V : Natural) return String is
     (if V in S'Range and then S (V) = '"' then S (V + 1 .. Skip_Value (S, V) - 2) else "");

   --  The text of element N (1-based) of the array at position V ("" if it has fewer elements).
   function Element (S : String; V : Natural; N : Positive) return String is
      P, E : Positive;
   begin
      if V not in S'Range or else S (V) /= '[' then
         return "";
      end if;
      P := Skip_Ws (S, V + 1);
      for K in 1 .. N loop
         exit when P > S'Last or else S (P) = ']';
         E := Skip_Value (S, P);
         if K = N then
            return S (P .. E - 1);
         end if;
         P := Skip_Ws (S, E);
         if P <= S'Last and then S (P) = ',' then
            P := Skip_Ws (S, P + 1);
         end if;
      end loop;
      return "";
   end Element;

   --  The strategy: your code goes here. Return the number (1-based) of the legal answer to play.
   --  Plays come first in the list, draw or pass last, so the first plays whenever a card can be
   --  played. Element (Turn, Find_Key (Turn, Turn'First, "legal"), K) is answer K's text, and
   --  String_At (Turn, Find_Key (Turn, Turn'First, "top")) the top card (protocol/PROTOCOL.md).
   function Choose (Turn : String) return Positive is
      pragma Unreferenced (Turn);
   begin
      return 1;
   end Choose;

   --  Write one line and flush it: the referee is waiting for it.
   procedure Send (Text : String) is
   begin
      Put_Line (Text);
      Flush;
   end Send;

   --  Read one line of any length, without its line end; False at the end of input. Text_IO's
   --  Get_Line is not used: after a line it waits for the next character (a page mark?), so a bot
   --  reading with it would sit on a turn until the referee wrote something more.
   Input : constant Text_Streams.Stream_Access := Text_Streams.Stream (Standard_Input);

   function Read_Line (Line : out Unbounded_String) return Boolean is
      C : Character;
   begin
      Line := Null_Unbounded_String;
      loop
         Character'Read (Input, C);
         exit when C = ASCII.LF;
         if C /= ASCII.CR then
            Append (Line, C);
         end if;
      end loop;
      return True;
   exception
      when End_Error =>
         return Length (Line) > 0;
   end Read_Line;

   Buffer : Unbounded_String;
begin
   while Read_Line (Buffer) loop
      declare
         Line : constant String := To_String (Buffer);
         Kind : constant String := String_At (Line, Find_Key (Line, Line'First, "type"));
      begin
         exit when Kind = "quit";
         if Kind = "hello" then
            Send ("{""type"":""ready"",""name"":""ada-kit""}");
         elsif Kind = "turn" then
            Send (Element (Line, Find_Key (Line, Line'First, "legal"), Choose (Line)));
         elsif Kind = "error" then
            Put_Line (Standard_Error, "ada-kit: the referee reports a fault: "
                      & String_At (Line, Find_Key (Line, Line'First, "message")));
         end if;  --  start, event, round_end, game_end: information, never answered
      end;
   end loop;
end Bot;
