// bot.go - a Last Card starter bot in Go, standard library only (encoding/json).
//
// Build: go build -o bot bot.go      Run: ./bot      Check: lastcard check ./bot
//
// The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
//   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
// exits on quit or at the end of input, and treats every other message as information.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Turn holds the fields of a turn this bot reads; add the others you need (protocol/PROTOCOL.md).
// Each legal answer is kept as raw JSON, so it is written back exactly as it came.
type Turn struct {
	ID     int               `json:"id"`
	Hand   []string          `json:"hand"`
	Top    string            `json:"top"`
	Colour *string           `json:"colour"`
	Hands  []int             `json:"hands"`
	Legal  []json.RawMessage `json:"legal"`
}

// Answer is one legal answer, decoded: its type, the cards it plays and the colour it names.
type Answer struct {
	Type   string   `json:"type"`
	Cards  []string `json:"cards"`
	Colour string   `json:"colour"`
	Call   bool     `json:"call"`
}

// choose is the strategy: your code goes here. Return one element of turn.Legal (decode one with
// json.Unmarshal(turn.Legal[i], &answer) to look at it). Plays come first in the list, draw or pass
// last, so the first element plays whenever a card can be played.
func choose(turn *Turn) json.RawMessage {
	return turn.Legal[0]
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(line []byte) {
		out.Write(line)
		out.WriteByte('\n')
		out.Flush() // the referee is waiting for this line
	}
	for {
		line, err := in.ReadBytes('\n') // a line of any length
		if len(line) == 0 && err != nil {
			return // end of input: the referee has gone
		}
		var msg struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		}
		if json.Unmarshal(line, &msg) != nil {
			fmt.Fprintf(os.Stderr, "go-kit: not JSON: %.80s\n", line)
			continue
		}
		switch msg.Type {
		case "quit":
			return
		case "hello":
			send([]byte(`{"type":"ready","name":"go-kit"}`))
		case "turn":
			var turn Turn
			if err := json.Unmarshal(line, &turn); err != nil || len(turn.Legal) == 0 {
				fmt.Fprintf(os.Stderr, "go-kit: a turn without legal answers: %v\n", err)
				continue
			}
			send(choose(&turn))
		case "error":
			fmt.Fprintf(os.Stderr, "go-kit: the referee reports a fault: %s\n", msg.Message)
		} // start, event, round_end, game_end: information, never answered
	}
}
