package web_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
	"github.com/xqtour/xqtour/web"
)

// standInEngine has the engine's file names with placeholder bodies: the
// serving tests need files, not a working engine (a clean clone has none).
var standInEngine = fstest.MapFS{
	"xiangqi.wasm":    {Data: standInWasm},
	"xiangqi.wasm.gz": {Data: gzipOf(standInWasm, standInWasm)},
	"wasm_exec.js":    {Data: []byte("// stand-in for Go's wasm_exec.js\n")},
}

var standInWasm = []byte("\x00asm\x01\x00\x00\x00")

// gzipOf gzips body as web/wasm/build does, naming the SHA-256 of of in the header.
func gzipOf(body, of []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	sum := sha256.Sum256(of)
	zw.Name = hex.EncodeToString(sum[:])
	_, _ = zw.Write(body)
	_ = zw.Close()
	return buf.Bytes()
}

// The .wasm goes gzipped (from the build's .gz) to a client that accepts
// gzip, as itself to any other, with Vary and an entity tag per encoding.
func TestEngine_GzipWhenAccepted(t *testing.T) {
	h := newHandler(t, web.Options{Engine: standInEngine})
	u := h.AssetURL("xiangqi.wasm")
	for _, c := range []struct {
		accept string
		gzip   bool
	}{{"gzip, deflate, br", true}, {"br;q=1.0, GZIP;q=0.5", true}, {"*", true}, {"", false}, {"br", false}, {"gzip;q=0", false}, {"gzip; q=0.000", false}} {
		res, body := get(t, h, u, "Accept-Encoding", c.accept)
		if res.StatusCode != http.StatusOK || res.Header.Get("Vary") != "Accept-Encoding" || res.Header.Get("Content-Type") != "application/wasm" {
			t.Fatalf("Accept-Encoding %q: %d %v", c.accept, res.StatusCode, res.Header)
		}
		if !c.gzip {
			if res.Header.Get("Content-Encoding") != "" || body != string(standInWasm) {
				t.Errorf("Accept-Encoding %q: encoded %q", c.accept, res.Header.Get("Content-Encoding"))
			}
			continue
		}
		if res.Header.Get("Content-Encoding") != "gzip" || !strings.HasSuffix(res.Header.Get("ETag"), `-gzip"`) {
			t.Fatalf("Accept-Encoding %q: %v", c.accept, res.Header)
		}
		zr, err := gzip.NewReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, standInWasm) {
			t.Errorf("Accept-Encoding %q: the gzipped body is not the .wasm: %v", c.accept, err)
		}
		if res2, _ := get(t, h, u, "Accept-Encoding", c.accept, "If-None-Match", res.Header.Get("ETag")); res2.StatusCode != http.StatusNotModified {
			t.Errorf("revalidating the gzipped .wasm: %d", res2.StatusCode)
		}
	}
	// A .gz from another build is refused, never served for this .wasm.
	stale := fstest.MapFS{"xiangqi.wasm": standInEngine["xiangqi.wasm"], "wasm_exec.js": standInEngine["wasm_exec.js"],
		"xiangqi.wasm.gz": {Data: gzipOf([]byte("older"), []byte("older"))}}
	if _, err := web.New(web.Options{Engine: stale}); err == nil || !strings.Contains(err.Error(), "not from the same build") {
		t.Errorf("a stale .gz: %v", err)
	}
}

// The engine is served as fingerprinted assets — application/wasm, the
// immutable cache — and the import map names the .wasm, so engine.js finds
// its fingerprinted URL with import.meta.resolve.
func TestEngine_ServedFingerprinted(t *testing.T) {
	h := newHandler(t, web.Options{Engine: standInEngine})
	if !h.HasEngine() {
		t.Fatal("HasEngine is false with both files")
	}
	_, shell := get(t, h, "/")
	imap := importMapRe.FindStringSubmatch(shell)[1]
	for name, ct := range map[string]string{"xiangqi.wasm": "application/wasm", "wasm_exec.js": "text/javascript; charset=utf-8"} {
		u := h.AssetURL(name)
		if !regexp.MustCompile(`^/assets/[a-z_]+\.[0-9a-f]{10}\.(wasm|js)$`).MatchString(u) {
			t.Fatalf("%s is served as %q, not fingerprinted", name, u)
		}
		if !strings.Contains(imap, `"/assets/`+name+`":"`+u+`"`) {
			t.Errorf("the import map lacks %s → %s: %s", name, u, imap)
		}
		res, body := get(t, h, u) // no Accept-Encoding: as it is
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != ct ||
			res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || body != string(standInEngine[name].Data) {
			t.Errorf("%s: %d %v", u, res.StatusCode, res.Header)
		}
	}
}

// Without the generated files (a clean clone before go generate ./web) the
// handler starts and serves no engine; half an engine is a build error.
func TestEngine_MissingOrHalfBuilt(t *testing.T) {
	h := newHandler(t, web.Options{Engine: fstest.MapFS{}})
	if h.HasEngine() || h.AssetURL("xiangqi.wasm") != "" {
		t.Error("an engine is served with no files")
	}
	if h.AssetURL("engine.js") == "" {
		t.Error("engine.js is not served")
	}
	half := fstest.MapFS{"xiangqi.wasm": standInEngine["xiangqi.wasm"]}
	if _, err := web.New(web.Options{Engine: half}); err == nil || !strings.Contains(err.Error(), "go generate ./web") {
		t.Errorf("half an engine: %v", err)
	}
}

// answer is one answer of the engine's API (web/wasm): a position's
// description, or a refusal.
type answer struct {
	Move       string   `json:"move"`
	FEN        string   `json:"fen"`
	SideToMove string   `json:"sideToMove"`
	InCheck    bool     `json:"inCheck"`
	Status     string   `json:"status"`
	LegalMoves []string `json:"legalMoves"`
	Error      *string  `json:"error"`
	Rule       string   `json:"rule"`
}

// serverAnswer is what the server's packages say of p: what the engine must answer.
func serverAnswer(p *xiangqi.Position, move string) answer {
	moves := []string{}
	for _, m := range p.LegalMoves() {
		moves = append(moves, m.String())
	}
	return answer{Move: move, FEN: p.FEN(), SideToMove: p.SideToMove().String(), InCheck: p.InCheck(), Status: p.Status().String(), LegalMoves: moves}
}

// sameAnswer compares the legal moves as sets: their order follows the
// engine's piece lists, which depend on how the position was reached (a game
// replayed on the server, a FEN parsed in the browser), not on the position.
func sameAnswer(got, want answer) bool {
	return got.Move == want.Move && got.FEN == want.FEN && got.SideToMove == want.SideToMove && got.InCheck == want.InCheck &&
		got.Status == want.Status && slices.Equal(slices.Sorted(slices.Values(got.LegalMoves)), slices.Sorted(slices.Values(want.LegalMoves))) &&
		(got.Error == nil) == (want.Error == nil) &&
		(got.Error == nil || *got.Error == *want.Error) && got.Rule == want.Rule
}

// refusalAnswer is the engine's answer for a refusal err: its message and the rule.
func refusalAnswer(err error) answer {
	msg := err.Error()
	a := answer{Error: &msg}
	var fe *xiangqi.FENError
	var ie *xiangqi.IllegalMoveError
	switch {
	case errors.As(err, &ie):
		a.Rule = ie.Rule
	case errors.As(err, &fe):
		a.Rule = fe.Rule
	}
	return a
}

type perftRow struct {
	fen   string
	depth int
	nodes int
}

// perftRows reads the perft table the rules engine's own tests use
// (shared/xiangqi/testdata, from the module's root).
func perftRows(t *testing.T) []perftRow {
	t.Helper()
	mod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	f, err := os.Open(filepath.Join(filepath.Dir(strings.TrimSpace(string(mod))), "shared", "xiangqi", "testdata", "perft.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		var r perftRow
		cols := strings.Split(sc.Text(), "\t")
		r.fen = cols[0]
		if err := json.Unmarshal([]byte(cols[1]), &r.depth); err != nil {
			t.Fatalf("bad row %q", sc.Text())
		}
		if err := json.Unmarshal([]byte(cols[2]), &r.nodes); err != nil {
			t.Fatalf("bad row %q", sc.Text())
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// randomGame plays up to maxPlies moves from start, each chosen at random
// among the legal ones, except that a mating move is always played, so the
// games reach checkmate and not only check.
func randomGame(rng *rand.Rand, start *xiangqi.Position, maxPlies int) []string {
	p := start.Clone()
	moves := []string{} // JSON [] even for a position with no move
	for len(moves) < maxPlies {
		legal := p.LegalMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		for _, c := range legal {
			if p.GivesCheck(c) {
				q := p.Clone()
				q.MakeMove(c)
				if q.Status() == xiangqi.Checkmate {
					m = c
					break
				}
			}
		}
		moves = append(moves, m.String())
		p.MakeMove(m)
	}
	return moves
}

// The browser's engine, run in Node as it is served, answers as the server's
// rules do: on every perft table position and each position one move on
// (legal moves, side to move, check, status, FEN; and the table's node
// counts for depths 1 and 2), on 300 seeded random games position by
// position (played through the engine's play), on the notation of those
// games (WXF, Chinese in both scripts) and on refusals (the rule id).
func TestEngine_AgreesWithTheServersRules(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (CI has it: the browser tests need it)")
	}
	dir := t.TempDir()
	build := exec.Command("go", "run", "./wasm/build", "-o", dir)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go run ./wasm/build: %v\n%s", err, out)
	}
	h := newHandler(t, web.Options{Engine: os.DirFS(dir)})
	if res, _ := get(t, h, h.AssetURL("xiangqi.wasm"), "Accept-Encoding", "gzip"); !h.HasEngine() || res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("the built engine is not served gzipped: %v", res.Header)
	}

	rows := perftRows(t)
	type game struct {
		Start string   `json:"start"`
		Moves []string `json:"moves"`
	}
	type refusal struct {
		FEN  string  `json:"fen"`
		Move *string `json:"move,omitempty"`
	}
	var cases struct {
		Perft     []string  `json:"perft"`
		Games     []game    `json:"games"`
		Notations []string  `json:"notations"`
		Refusals  []refusal `json:"refusals"`
	}
	for _, r := range rows {
		if !slices.Contains(cases.Perft, r.fen) {
			cases.Perft = append(cases.Perft, r.fen)
		}
	}
	// The statuses the perft table lacks: mate and stalemate (G-1).
	cases.Perft = append(cases.Perft, "3k5/9/9/9/9/9/9/9/9/3RK4 b", "4k4/5P3/9/9/9/9/9/9/9/3K5 b")
	rng := rand.New(rand.NewPCG(33, 2026))
	for i := range 300 {
		start := xiangqi.NewPosition()
		if i%3 == 1 { // some games from the table's middlegames
			if start, err = xiangqi.ParseFEN(cases.Perft[rng.IntN(len(cases.Perft)-2)]); err != nil {
				t.Fatal(err)
			}
		}
		cases.Games = append(cases.Games, game{Start: start.FEN(), Moves: randomGame(rng, start, 100)})
	}
	cases.Notations = []string{"wxf", "chinese", "chinese-traditional"}
	startFEN := xiangqi.NewPosition().FEN()
	str := func(s string) *string { return &s }
	cases.Refusals = []refusal{
		{FEN: startFEN, Move: str("h0h3")},                     // a horse move no rule allows (B-6)
		{FEN: startFEN, Move: str("a0a1x")},                    // no notation reads it
		{FEN: "4k4/9/9/9/9/9/9/9/9/4K4 w"},                     // the generals face (B-10)
		{FEN: "not a fen"},                                     // syntax
		{FEN: startFEN, Move: str("炮二\"平\\五\x07")},             // quotes, backslash, a control character: the JSON must carry them
		{FEN: "3k5/9/9/9/9/9/9/9/9/3RK4 b", Move: str("d9e9")}, // into check
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	casesPath, answersPath := filepath.Join(dir, "cases.json"), filepath.Join(dir, "answers.json")
	if err := os.WriteFile(casesPath, in, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "test/engine-agree.mjs", dir, casesPath, answersPath).CombinedOutput(); err != nil {
		t.Fatalf("node test/engine-agree.mjs: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(answersPath)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		LoadMs float64 `json:"loadMs"`
		Perft  []struct {
			Pos      answer   `json:"pos"`
			Children []answer `json:"children"`
		} `json:"perft"`
		Games []struct {
			Start answer              `json:"start"`
			Steps []answer            `json:"steps"`
			Texts map[string]struct { // {texts} or a refusal
				Texts []string `json:"texts"`
				Error *string  `json:"error"`
			} `json:"texts"`
		} `json:"games"`
		Refusals []answer `json:"refusals"`
		Timing   map[string]float64
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Perft) != len(cases.Perft) || len(got.Games) != len(cases.Games) || len(got.Refusals) != len(cases.Refusals) {
		t.Fatalf("answers for %d/%d/%d cases, want %d/%d/%d", len(got.Perft), len(got.Games), len(got.Refusals), len(cases.Perft), len(cases.Games), len(cases.Refusals))
	}

	failures := 0
	check := func(where string, got, want answer) {
		if !sameAnswer(got, want) && failures < 10 {
			failures++
			t.Errorf("%s:\n engine %+v\n server %+v", where, got, want)
		}
	}
	compared, seen := 0, map[string]int{}
	counted := map[string][2]int{} // fen → nodes at depth 1 and 2, as the engine's answers count them
	for i, fen := range cases.Perft {
		p, err := xiangqi.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		check("position "+fen, got.Perft[i].Pos, serverAnswer(p, ""))
		legal := p.LegalMoves()
		if len(got.Perft[i].Children) != len(legal) {
			t.Errorf("%s: %d children, want %d", fen, len(got.Perft[i].Children), len(legal))
			continue
		}
		depth2 := 0
		for j, m := range legal {
			q := p.Clone()
			q.MakeMove(m)
			check("after "+m.String()+" from "+fen, got.Perft[i].Children[j], serverAnswer(q, m.String()))
			depth2 += len(got.Perft[i].Children[j].LegalMoves)
		}
		counted[fen] = [2]int{len(got.Perft[i].Pos.LegalMoves), depth2}
		compared += 1 + len(legal)
	}
	for _, r := range rows {
		if r.depth <= 2 && counted[r.fen][r.depth-1] != r.nodes {
			t.Errorf("perft(%d) of %s through the engine: %d, the table says %d", r.depth, r.fen, counted[r.fen][r.depth-1], r.nodes)
		}
	}
	for i, g := range cases.Games {
		p, err := xiangqi.ParseFEN(g.Start)
		if err != nil {
			t.Fatal(err)
		}
		check("game start", got.Games[i].Start, serverAnswer(p, ""))
		start := p.Clone()
		var moves []xiangqi.Move
		for j, text := range g.Moves {
			m, err := notation.ParseAny(p, text)
			if err != nil {
				t.Fatal(err)
			}
			if j >= len(got.Games[i].Steps) {
				t.Errorf("game %d: the engine stopped after %d moves of %d", i, j, len(g.Moves))
				break
			}
			p.MakeMove(m)
			moves = append(moves, m)
			want := serverAnswer(p, m.String())
			check("game "+g.Start+" move "+text, got.Games[i].Steps[j], want)
			seen[want.Status]++
			if want.InCheck {
				seen["check"]++
			}
			compared++
		}
		for _, name := range cases.Notations {
			n, _ := notation.ByName(name)
			want, err := notation.FormatLine(n, start, moves)
			if err != nil {
				t.Fatal(err)
			}
			if gt := got.Games[i].Texts[name]; gt.Error != nil || !slices.Equal(gt.Texts, want) {
				t.Errorf("game %d in %s: engine %q (%v), server %q", i, name, gt.Texts, gt.Error, want)
			}
		}
	}
	for i, r := range cases.Refusals {
		p, err := xiangqi.ParseFEN(r.FEN)
		want := answer{}
		switch {
		case err != nil:
			want = refusalAnswer(err)
		case r.Move == nil:
			want = serverAnswer(p, "")
		default:
			if _, err := notation.ParseAny(p, *r.Move); err != nil {
				want = refusalAnswer(err)
			}
		}
		if want.Error == nil {
			t.Fatalf("refusal case %d is accepted by the server's rules", i)
		}
		check("refusal "+r.FEN, got.Refusals[i], want)
	}
	// The games must reach what the comparison is for: checks and mates.
	if seen["check"] == 0 || seen["checkmate"] == 0 {
		t.Errorf("the random games reached %v; want checks and checkmates", seen)
	}
	t.Logf("engine = server on %d positions (%d perft rows, %d games: %v); Node: load %.0f ms, per call %v µs",
		compared, len(rows), len(cases.Games), seen, got.LoadMs, got.Timing)
}
