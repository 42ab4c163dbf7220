//go:build js && wasm

// Command wasm is the rules engine of shared/xiangqi and shared/notation
// compiled to WebAssembly (GOOS=js GOARCH=wasm), so the web client's pages
// can find legal moves, check, mate, stalemate and move notation with no
// network, with the server's own code and no second implementation in
// JavaScript.
//
// It lives under web/ rather than shared/ because it is an edge: syscall/js
// talks to the browser, and shared/'s core packages stay standard library
// only and free of I/O. The web package serves the build
// (/assets/xiangqi.<hash>.wasm) and web/static/engine.js loads it.
//
// On start it puts one object on the JavaScript global xqtourEngine, whose
// functions take strings (and an array of strings) and return a JSON text
// that engine.js parses; they never throw: a refusal is {error, rule}, with
// the SPEC rule id when a rule refused it. Then main blocks, so the functions
// stay callable. JSON rather than JavaScript objects because every value
// js.ValueOf builds is a call across the Go/JavaScript boundary (an answer of
// 44 moves took 3–4× longer that way), and written by hand rather than with
// encoding/json, which would add ~400 KB (~100 KB gzipped) to the .wasm for
// five kinds of field.
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
	"strconv"
	"syscall/js"
	"unicode/utf8"

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
func fn(n int, f func(args []js.Value) *object) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < n {
			return refusal(errors.New("too few arguments")).String()
		}
		return f(args).String()
	})
}

// str returns v as a string, or ok=false when v is not one.
func str(v js.Value) (string, bool) {
	if v.Type() != js.TypeString {
		return "", false
	}
	return v.String(), true
}

func legalMoves(args []js.Value) *object {
	p, err := parse(args[0])
	if err != nil {
		return refusal(err)
	}
	return new(object).moves("moves", p.LegalMoves())
}

func position(args []js.Value) *object {
	p, err := parse(args[0])
	if err != nil {
		return refusal(err)
	}
	return describe(new(object), p)
}

func play(args []js.Value) *object {
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
	return describe(new(object).str("move", m.String()), p)
}

func formatLine(args []js.Value) *object {
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
		return refusal(errors.New(`notation: want a name such as "wxf" or "chinese"`))
	}
	n, ok := notation.ByName(name)
	if !ok {
		return refusal(errors.New("notation: unknown name " + strconv.Quote(name)))
	}
	moves, err := notation.ParseLine(nil, p, texts)
	if err != nil {
		return refusal(err)
	}
	out, err := notation.FormatLine(n, p, moves)
	if err != nil {
		return refusal(err)
	}
	return new(object).strs("texts", out)
}

// parse reads a FEN as the server does (xiangqi.ParseFEN).
func parse(v js.Value) (*xiangqi.Position, error) {
	s, ok := str(v)
	if !ok {
		return nil, errors.New("fen: want a string")
	}
	return xiangqi.ParseFEN(s)
}

// describe adds what the game view says of a position: side to move, check,
// status and the legal moves.
func describe(o *object, p *xiangqi.Position) *object {
	return o.str("fen", p.FEN()).
		str("sideToMove", p.SideToMove().String()).
		boolean("inCheck", p.InCheck()).
		str("status", p.Status().String()).
		moves("legalMoves", p.LegalMoves())
}

// refusal is the answer for an error: its message and, when a rule of the
// SPEC refused it, the rule's id.
func refusal(err error) *object {
	o := new(object).str("error", err.Error())
	var fe *xiangqi.FENError
	var ie *xiangqi.IllegalMoveError
	switch {
	case errors.As(err, &ie):
		o.str("rule", ie.Rule)
	case errors.As(err, &fe) && fe.Rule != "":
		o.str("rule", fe.Rule)
	}
	return o
}

// object writes one flat JSON object, field by field.
type object struct{ b []byte }

func (o *object) key(k string) *object {
	if len(o.b) == 0 {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.b = append(appendString(o.b, k), ':')
	return o
}

func (o *object) str(k, v string) *object {
	o.key(k).b = appendString(o.b, v)
	return o
}

func (o *object) boolean(k string, v bool) *object {
	o.key(k).b = strconv.AppendBool(o.b, v)
	return o
}

func (o *object) strs(k string, vs []string) *object {
	o.key(k).b = append(o.b, '[')
	for i, v := range vs {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = appendString(o.b, v)
	}
	o.b = append(o.b, ']')
	return o
}

// moves writes moves in ICCS.
func (o *object) moves(k string, ms []xiangqi.Move) *object {
	texts := make([]string, len(ms))
	for i, m := range ms {
		texts[i] = m.String()
	}
	return o.strs(k, texts)
}

// String returns the JSON text.
func (o *object) String() string {
	if len(o.b) == 0 {
		return "{}"
	}
	return string(o.b) + "}"
}

// appendString appends s as a JSON string: quote, backslash and control
// characters escaped, everything else as UTF-8 (invalid bytes become U+FFFD).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
