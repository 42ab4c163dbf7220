//go:build js && wasm

// Command wasm is the rules engine of shared/xiangqi and shared/notation
// compiled to WebAssembly (GOOS=js GOARCH=wasm), so the web client's pads
// find legal moves, check, mate, stalemate and move notation with the
// server's own code and no second implementation in JavaScript.
//
// It lives under web/ rather than shared/ because it is an edge: syscall/js
// talks to the browser, and shared/'s core packages stay standard library
// only and free of I/O. The web package serves the build
// (/assets/xiangqi.<hash>.wasm) and web/static/engine.js loads it.
//
// On start it puts one object on the JavaScript global xqtourEngine, whose
// functions take and return plain values (strings, arrays, objects) and never
// throw: a refusal is {error, rule}, with the SPEC rule id when a rule refused
// it. Then main blocks, so the functions stay callable.
//
//	legalMoves(fen)          {moves: ["h2e2", …]} in ICCS (as a set: the order means nothing)
//	position(fen)            {fen, sideToMove, inCheck, status, legalMoves}
//	play(fen, move)          {move, fen, sideToMove, inCheck, status, legalMoves}
//	notation(fen, moves, n)  {texts: […]}: the line written in notation n
//
// status is "ongoing", "checkmate" or "stalemate" (xiangqi.Status); a move is
// read as the server reads a submitted move (notation.ParseAny, N-4); n is a
// notation.ByName name ("wxf", "chinese", "chinese-traditional", …), as the
// game view's ?notation= writes the record.
package main

import (
	"errors"
	"syscall/js"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

func main() {
	api := map[string]any{
		"legalMoves": fn(1, legalMoves),
		"position":   fn(1, position),
		"play":       fn(2, play),
		"notation":   fn(3, formatLine),
	}
	js.Global().Set("xqtourEngine", js.ValueOf(api))
	select {} // keep the functions alive; the page ends the program
}

// fn wraps f as a JavaScript function that needs at least n arguments. A
// JavaScript value of the wrong type would panic inside syscall/js and end
// the whole program, so arguments are checked first.
func fn(n int, f func(args []js.Value) map[string]any) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < n {
			return refusal(errors.New("too few arguments"))
		}
		return js.ValueOf(f(args))
	})
}

// str returns v as a string, or ok=false when v is not one.
func str(v js.Value) (string, bool) {
	if v.Type() != js.TypeString {
		return "", false
	}
	return v.String(), true
}

func legalMoves(args []js.Value) map[string]any {
	p, err := parse(args[0])
	if err != nil {
		return refusal(err)
	}
	return map[string]any{"moves": iccs(p.LegalMoves())}
}

func position(args []js.Value) map[string]any {
	p, err := parse(args[0])
	if err != nil {
		return refusal(err)
	}
	return describe(p)
}

func play(args []js.Value) map[string]any {
	p, err := parse(args[0])
	if err != nil {
		return refusal(err)
	}
	text, ok := str(args[1])
	if !ok {
		return refusal(errors.New("move: want a string"))
	}
	m, err := notation.ParseAny(p, text)
	if err != nil {
		return refusal(err)
	}
	if err := p.Play(m); err != nil { // ParseAny returns legal moves only; kept for safety
		return refusal(err)
	}
	out := describe(p)
	out["move"] = m.String()
	return out
}

func formatLine(args []js.Value) map[string]any {
	p, err := parse(args[0])
	if err != nil {
		return refusal(err)
	}
	if args[1].Type() != js.TypeObject || args[1].Get("length").Type() != js.TypeNumber {
		return refusal(errors.New("moves: want an array of strings"))
	}
	texts := make([]string, args[1].Length())
	for i := range texts {
		var ok bool
		if texts[i], ok = str(args[1].Index(i)); !ok {
			return refusal(errors.New("moves: want an array of strings"))
		}
	}
	name, ok := str(args[2])
	if !ok {
		return refusal(errors.New("notation: want a name such as \"wxf\" or \"chinese\""))
	}
	n, ok := notation.ByName(name)
	if !ok {
		return refusal(errors.New("notation: unknown name " + name))
	}
	moves, err := notation.ParseLine(nil, p, texts)
	if err != nil {
		return refusal(err)
	}
	out, err := notation.FormatLine(n, p, moves)
	if err != nil {
		return refusal(err)
	}
	return map[string]any{"texts": anys(out)}
}

// parse reads a FEN as the server does (xiangqi.ParseFEN).
func parse(v js.Value) (*xiangqi.Position, error) {
	s, ok := str(v)
	if !ok {
		return nil, errors.New("fen: want a string")
	}
	return xiangqi.ParseFEN(s)
}

// describe is what the game view says of a position: side to move, check,
// status and the legal moves.
func describe(p *xiangqi.Position) map[string]any {
	return map[string]any{
		"fen":        p.FEN(),
		"sideToMove": p.SideToMove().String(),
		"inCheck":    p.InCheck(),
		"status":     p.Status().String(),
		"legalMoves": iccs(p.LegalMoves()),
	}
}

// iccs writes moves in ICCS as a JavaScript array (js.ValueOf takes []any).
func iccs(moves []xiangqi.Move) []any {
	out := make([]any, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

// anys turns ss into a JavaScript array.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// refusal is the answer for an error: its message and, when a rule of the
// SPEC refused it, the rule's id.
func refusal(err error) map[string]any {
	out := map[string]any{"error": err.Error()}
	var fe *xiangqi.FENError
	var ie *xiangqi.IllegalMoveError
	switch {
	case errors.As(err, &ie):
		out["rule"] = ie.Rule
	case errors.As(err, &fe) && fe.Rule != "":
		out["rule"] = fe.Rule
	}
	return out
}
