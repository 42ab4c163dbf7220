package notation

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// PGNGame is one game of a PGN file as it is written: its tags, the texts of
// its moves and its result token. Nothing in it has been checked against the
// rules; Replay plays it on the board.
type PGNGame struct {
	// Line is the line the game starts on, counted from 1.
	Line int
	// Tags are the tag pairs in the order written.
	Tags []PGNTag
	// Moves are the move texts of the main line, without move numbers,
	// comments, variations or annotation glyphs.
	Moves []PGNMove
	// Result is the game-termination token: "1-0", "0-1", "1/2-1/2", "0-0"
	// or "*"; "" when the text has none (the Result tag may still say).
	Result string
}

// PGNTag is one tag pair, [Name "Value"].
type PGNTag struct {
	Name, Value string
}

// PGNMove is the text of one move and the line it stands on.
type PGNMove struct {
	Text string
	Line int
}

// Tag returns the value of the first tag called name (case-insensitive), or
// "".
func (g PGNGame) Tag(name string) string {
	for _, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// ReadPGN splits a PGN file into its games. It reads what real files
// contain, not only the PGN standard: tag values holding {} or (), comments
// in {…}, /*…*/ and after ;, nested variations (…), numeric and glyph
// annotations ($1, !, ?!), move numbers glued to the move (1.h2e2, 1．炮二平五),
// Chinese moves written without spaces (炮二平五马８进７), full-width
// spaces, and text after the result up to the next game's tags. text must be
// UTF-8; callers decode GB18030 or Big5 first. A file with no moves and no
// tags gives no games.
func ReadPGN(text string) []PGNGame {
	text = strings.TrimPrefix(text, "\uFEFF")
	r := &pgnReader{src: text, line: 1}
	r.run()
	return r.games
}

type pgnReader struct {
	src   string
	pos   int
	line  int
	games []PGNGame
	cur   *PGNGame
	// ended is set after a result token: what follows, up to the next tag
	// line or a line starting with a move number, is trailing text and is
	// skipped.
	ended bool
}

func (r *pgnReader) game() *PGNGame {
	if r.cur == nil {
		r.games = append(r.games, PGNGame{Line: r.line})
		r.cur = &r.games[len(r.games)-1]
	}
	return r.cur
}

// finish closes the current game so the next tag or move starts a new one.
func (r *pgnReader) finish() {
	r.cur = nil
	r.ended = false
}

func (r *pgnReader) run() {
	atLineStart := true
	for r.pos < len(r.src) {
		c, size := utf8.DecodeRuneInString(r.src[r.pos:])
		switch {
		case c == '\n':
			r.line++
			r.pos += size
			atLineStart = true
			continue
		case isPGNSpace(c):
			r.pos += size
			continue
		case c == '[' && atLineStart && r.looksLikeTag():
			if r.cur != nil && (len(r.cur.Moves) > 0 || r.cur.Result != "" || r.ended) {
				r.finish()
			}
			r.readTag()
		case r.ended && atLineStart && r.startsMoveNumber():
			r.finish() // movetext-only files: "1." on a new line starts the next game
			continue
		case r.ended:
			r.skipLine()
		case c == '{':
			r.skipUntil("}")
		case c == ';':
			r.skipLine()
		case c == '%' && atLineStart:
			r.skipLine() // PGN's escape mechanism
		case strings.HasPrefix(r.src[r.pos:], "/*"):
			r.skipUntil("*/")
		case c == '(':
			r.skipVariation()
		default:
			r.readToken()
		}
		atLineStart = false
	}
}

// startsMoveNumber reports whether the text at pos is a move number ("1.",
// "１．"), which after a result starts another game.
func (r *pgnReader) startsMoveNumber() bool {
	end := strings.IndexAny(r.src[r.pos:], " \t\n")
	tok := r.src[r.pos:]
	if end >= 0 {
		tok = tok[:end]
	}
	return stripMoveNumber(tok) != tok
}

// looksLikeTag tells a tag line ([Event "…"]) from a bracket in move text.
func (r *pgnReader) looksLikeTag() bool {
	end := strings.IndexByte(r.src[r.pos:], '\n')
	line := r.src[r.pos:]
	if end >= 0 {
		line = line[:end]
	}
	line = strings.TrimRightFunc(line, unicode.IsSpace)
	return len(line) >= 3 && strings.HasSuffix(line, "]") && strings.ContainsRune(line, '"')
}

// readTag reads [Name "Value"] on one line. The value runs from the first
// quote to the last quote before the closing bracket, so values holding
// brackets, braces or unescaped quotes still read; \" and \\ are unescaped.
func (r *pgnReader) readTag() {
	end := strings.IndexByte(r.src[r.pos:], '\n')
	if end < 0 {
		end = len(r.src) - r.pos
	}
	line := strings.TrimRightFunc(r.src[r.pos:r.pos+end], unicode.IsSpace)
	r.pos += end
	body := strings.TrimSuffix(strings.TrimPrefix(line, "["), "]")
	open, close := strings.IndexByte(body, '"'), strings.LastIndexByte(body, '"')
	name := strings.TrimSpace(body[:open])
	value := ""
	if close > open {
		value = body[open+1 : close]
	}
	value = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(value)
	g := r.game()
	g.Tags = append(g.Tags, PGNTag{Name: name, Value: value})
}

func (r *pgnReader) skipLine() {
	end := strings.IndexByte(r.src[r.pos:], '\n')
	if end < 0 {
		r.pos = len(r.src)
		return
	}
	r.pos += end // the newline itself counts the line
}

// skipUntil skips past the closing marker, counting lines; an unclosed
// comment runs to the end of the file.
func (r *pgnReader) skipUntil(closing string) {
	end := strings.Index(r.src[r.pos+1:], closing)
	if end < 0 {
		r.line += strings.Count(r.src[r.pos:], "\n")
		r.pos = len(r.src)
		return
	}
	stop := r.pos + 1 + end + len(closing)
	r.line += strings.Count(r.src[r.pos:stop], "\n")
	r.pos = stop
}

// skipVariation skips a parenthesised variation, nested ones and comments
// inside it included.
func (r *pgnReader) skipVariation() {
	depth := 0
	for r.pos < len(r.src) {
		switch c := r.src[r.pos]; c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				r.pos++
				return
			}
		case '{':
			r.skipUntil("}")
			continue
		case '\n':
			r.line++
		}
		r.pos++
	}
}

// readToken reads one whitespace-delimited token of move text and files it as
// a move number, an annotation, a result or moves.
func (r *pgnReader) readToken() {
	start := r.pos
	for r.pos < len(r.src) {
		c, size := utf8.DecodeRuneInString(r.src[r.pos:])
		if isPGNSpace(c) || c == '\n' || c == '{' || c == '(' || c == ';' {
			break
		}
		if c == ')' && r.pos > start {
			break
		}
		r.pos += size
	}
	if r.pos == start { // a stray ')'
		r.pos++
		return
	}
	tok := r.src[start:r.pos]
	if res, ok := pgnResult(tok); ok {
		r.game().Result = res
		r.ended = true
		return
	}
	tok = stripMoveNumber(tok)
	tok = strings.TrimRight(tok, "!?")
	if tok == "" || tok[0] == '$' || strings.Trim(tok, ".") == "" {
		return
	}
	g := r.game()
	for _, m := range splitGlued(tok) {
		g.Moves = append(g.Moves, PGNMove{Text: m, Line: r.line})
	}
}

// pgnResult reads a game-termination token, in ASCII or full width.
func pgnResult(tok string) (string, bool) {
	switch narrow(tok) {
	case "1-0":
		return "1-0", true
	case "0-1":
		return "0-1", true
	case "1/2-1/2", "½-½":
		return "1/2-1/2", true
	case "0-0":
		return "0-0", true
	case "*":
		return "*", true
	}
	return "", false
}

// stripMoveNumber removes a leading move number with its dots: "12.", "1...",
// "1．" and "１２．".
func stripMoveNumber(tok string) string {
	i := 0
	for i < len(tok) {
		c, size := utf8.DecodeRuneInString(tok[i:])
		if _, ok := readDigit(c); !ok {
			break
		}
		i += size
	}
	if i == 0 {
		return tok
	}
	j := i
	for j < len(tok) {
		c, size := utf8.DecodeRuneInString(tok[j:])
		if c != '.' && c != '．' && c != '。' {
			break
		}
		j += size
	}
	if j == i {
		return tok // a move such as 25+1, not a number
	}
	return tok[j:]
}

// splitGlued splits Chinese moves written without spaces, move numbers
// included ("炮二平五马８进７2.马二进三"), into moves of four characters. A
// token of five characters or fewer, one without Chinese characters (a WXF
// "C2.5" must not lose its dot) and a 一字四数 move are one move.
func splitGlued(tok string) []string {
	runes := []rune(tok)
	if len(runes) <= 5 || !hasHan(runes) || strings.ContainsRune(tok, '-') { // 一字四数 馬21-33 is one move
		return []string{tok}
	}
	var out []string
	for i := 0; i < len(runes); {
		// At a move boundary, a number followed by dots is a move number.
		j := i
		for j < len(runes) {
			if _, ok := readDigit(runes[j]); !ok {
				break
			}
			j++
		}
		k := j
		for k < len(runes) && (runes[k] == '.' || runes[k] == '．' || runes[k] == '。') {
			k++
		}
		if k > j && j > i {
			i = k
			continue
		}
		end := min(i+4, len(runes))
		out = append(out, string(runes[i:end]))
		i = end
	}
	return out
}

func hasHan(runes []rune) bool {
	for _, c := range runes {
		if unicode.Is(unicode.Han, c) {
			return true
		}
	}
	return false
}

func isPGNSpace(c rune) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\u3000' || c == '\v' || c == '\f' || c == '\u00A0'
}
