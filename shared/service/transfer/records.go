package transfer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
)

// MaxGames is how many games one PGN import may hold; each becomes an item
// written in the request, so a club's archive file is imported in parts.
const MaxGames = 200

// ErrCharset is RecordText's refusal of a charset records are not sent in.
var ErrCharset = errors.New("not a charset records are read in: send UTF-8, GB18030 or Big5")

// RecordText decodes a record file to UTF-8: the charset the sender named
// (lower case; "" when none), else UTF-8 (with or without a byte-order
// mark) when the bytes are valid UTF-8, else GB18030 or Big5, whichever
// reads more of the characters records are written with. Real archives come
// in all three.
func RecordText(charset string, body []byte) (string, error) {
	var enc encoding.Encoding
	switch charset {
	case "", "utf-8", "utf8":
	case "gb18030", "gbk", "gb2312":
		enc = simplifiedchinese.GB18030
	case "big5", "big-5":
		enc = traditionalchinese.Big5
	default:
		return "", ErrCharset
	}
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	if enc == nil {
		if utf8.Valid(body) {
			return string(body), nil
		}
		enc = guessChineseEncoding(body)
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return "", command.BadRequest("malformed_body", "the record is not valid UTF-8, GB18030 or Big5 text")
	}
	return string(out), nil
}

// recordChars are characters every Chinese record uses, in the two scripts:
// GB18030 read as Big5 (or the reverse) yields other characters.
const (
	simplifiedRecordChars  = "车马炮兵卒进退平将帅士仕相象前后红黑胜负和先"
	traditionalRecordChars = "車馬砲炮兵卒進退平將帥士仕相象前後紅黑勝負和先"
)

func guessChineseEncoding(b []byte) encoding.Encoding {
	score := func(enc encoding.Encoding, chars string) int {
		s, err := enc.NewDecoder().Bytes(b)
		if err != nil {
			return -1
		}
		n := 0
		for _, r := range string(s) {
			switch {
			case r == utf8.RuneError:
				n -= 4
			case strings.ContainsRune(chars, r):
				n++
			}
		}
		return n
	}
	if score(traditionalchinese.Big5, traditionalRecordChars) > score(simplifiedchinese.GB18030, simplifiedRecordChars+traditionalRecordChars) {
		return traditionalchinese.Big5
	}
	return simplifiedchinese.GB18030
}

// recordResult reads a PGN game's result: the termination token, else the
// Result tag; "*" or none leaves the game in progress.
func recordResult(g notation.PGNGame) (result.Result, error) {
	s := g.Result
	if s == "" || s == "*" {
		if tag := strings.TrimSpace(g.Tag("Result")); tag != "" {
			s = tag
		}
	}
	if s == "" || s == "*" {
		return result.None, nil
	}
	r, err := result.Parse(s)
	if err != nil {
		return result.None, fmt.Errorf("result %q: want 1-0, 0-1, 1/2-1/2, 0-0 or *", s)
	}
	return r, nil
}

// RecordError says where a record stops being a legal game.
type RecordError struct {
	Move       int
	Side       string
	Text       string
	Line       int
	FEN        string
	Reason     string
	Rule       string
	Candidates []string
}

// ImportedGame is one game of a PGN import: its id and seat tokens (shown
// once), or why it could not be read.
type ImportedGame struct {
	Index, Line       int
	Event, Red, Black string
	// Unsafe: the record's tags hold a control or format character (it was
	// refused for them), so Event, Red and Black must be shown escaped.
	Unsafe                   bool
	ID, RedToken, BlackToken string
	Notation                 string
	Ply                      int
	// Result and Reason are the finished game's ("" while in progress).
	Result, Reason string
	Error          *RecordError
}

func replayError(e *notation.ReplayError) *RecordError {
	out := &RecordError{Move: e.Number, Text: e.Text, Line: e.Line, FEN: e.FEN, Reason: e.Reason, Rule: e.Rule, Candidates: e.Candidates}
	if e.Text != "" {
		out.Side = e.Side.String()
	}
	return out
}

// recordInfoOf keeps what a record's tags say of the game, so that its
// export carries them again.
func recordInfoOf(g notation.PGNGame) *games.RecordInfo {
	info := &games.RecordInfo{Event: g.Tag("Event"), Site: g.Tag("Site"), Date: g.Tag("Date"), Round: g.Tag("Round"),
		Red: g.Tag("Red"), Black: g.Tag("Black")}
	if *info == (games.RecordInfo{}) {
		return nil
	}
	for _, s := range []*string{&info.Event, &info.Site, &info.Date, &info.Round, &info.Red, &info.Black} {
		*s = clip(*s, maxTagBytes)
	}
	return info
}

// checkTags refuses a record whose tags hold a control or format character
// (C0 such as ESC and CR, DEL, C1 such as U+0085, a bidi override), as
// names are refused them: the tags are kept and written back into PGN
// exports, where a CR starts a line of its own and ESC drives a terminal.
func checkTags(g notation.PGNGame) error {
	for _, t := range g.Tags {
		for _, r := range t.Name + t.Value {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				return fmt.Errorf("tag %s must not contain the control or format character %U", quote(t.Name), r)
			}
		}
	}
	return nil
}

// maxTagBytes bounds each kept tag, so an item stays small whatever a file
// holds.
const maxTagBytes = 200

// ImportRecords makes each game of a PGN file (text) a standalone game
// under rules, finished with the record's result or in progress, with its
// seat tokens: anyone may. It answers every game, with its id or the first
// move that failed, and how many were imported.
func (s *Service) ImportRecords(ctx context.Context, text string, rules game.Rules) ([]ImportedGame, int, error) {
	pgns := notation.ReadPGN(text)
	if len(pgns) == 0 {
		return nil, 0, command.BadRequest("no_games", "the body holds no PGN game: want tags such as [Event \"…\"] and moves such as 1. 炮二平五 马8进7")
	}
	if len(pgns) > MaxGames {
		return nil, 0, &command.Error{Kind: command.TooLarge, Code: "too_many_games",
			Message: fmt.Sprintf("the file holds %d games; import at most %d at a time", len(pgns), MaxGames)}
	}
	now := s.svc.NowMs(ctx)
	out := make([]ImportedGame, len(pgns))
	imported := 0
	for i, pg := range pgns {
		row := &out[i]
		row.Index, row.Line = i+1, pg.Line
		row.Event, row.Red, row.Black = clip(pg.Tag("Event"), maxTagBytes), clip(pg.Tag("Red"), maxTagBytes), clip(pg.Tag("Black"), maxTagBytes)
		if err := checkTags(pg); err != nil {
			row.Unsafe = true
			row.Error = &RecordError{Line: pg.Line, Reason: err.Error()}
			continue
		}
		rep, rerr := pg.Replay()
		if rerr != nil {
			row.Error = replayError(rerr)
			continue
		}
		row.Notation = rep.Notation
		res, err := recordResult(pg)
		if err != nil {
			row.Error = &RecordError{Move: len(rep.Moves)/2 + 1, Reason: err.Error()}
			continue
		}
		fen := ""
		if pg.Tag("FEN") != "" {
			fen = rep.Start.FEN()
		}
		g, err := game.FromRecord(game.Setup{FEN: fen, Control: clock.Control{}, Rules: rules, StartMs: now}, rep.Moves, res, game.NoReason, now)
		if err != nil {
			row.Error = &RecordError{Move: len(rep.Moves)/2 + 1, FEN: rep.Start.FEN(), Reason: refusalText(err)}
			if re, ok := err.(*game.RuleError); ok {
				row.Error.Rule = re.Rule
			}
			continue
		}
		gid := service.NewID('g')
		redToken, redHash := service.NewToken(gid, "red")
		blackToken, blackHash := service.NewToken(gid, "black")
		link := games.Link{Red: "red", Black: "black", RedHash: redHash, BlackHash: blackHash, Info: recordInfoOf(pg)}
		rec, err := games.Encode(&store.Record{PK: store.GamePK(gid), SK: store.GameSK, Kind: store.KindGame}, link, g)
		if err != nil {
			return nil, 0, err
		}
		rec.Expires = s.games.TTL(&games.Item{ID: gid, Link: link, Game: g, Rec: rec}, now)  // a finished record expires as a finished game does
		if err := command.Retry(func() error { return s.store.Put(ctx, rec) }); err != nil { // a new id: only DynamoDB's own contention can refuse it (retry.go)
			return nil, 0, err
		}
		imported++
		row.ID, row.RedToken, row.BlackToken, row.Ply = gid, redToken, blackToken, g.Ply()
		if r, why := g.Result(); r != result.None {
			row.Result, row.Reason = r.String(), why.String()
		}
	}
	return out, imported, nil
}

// LoadRecord loads a scoresheet (text, one PGN game) into sg's game for
// by (an arbiter or the table's scribe, whom the game checked), replacing
// the moves entered there; the game's log keeps who did it and what it
// replaced.
func LoadRecord(sg *games.Item, by game.Actor, now int64, text string) error {
	pgns := notation.ReadPGN(text)
	if len(pgns) != 1 {
		return command.BadRequest("invalid_record", fmt.Sprintf("send exactly one game; the body holds %d", len(pgns)))
	}
	if err := checkTags(pgns[0]); err != nil {
		return command.BadRequest("invalid_record", err.Error())
	}
	rep, rerr := pgns[0].Replay()
	if rerr != nil {
		return &command.Error{Kind: command.Refused, Code: "invalid_record", Rule: rerr.Rule,
			Message: rerr.Error() + " (position " + rerr.FEN + ")"}
	}
	if start := sg.Game.StartFEN(); rep.Start.FEN() != start {
		return &command.Error{Kind: command.Refused, Code: "invalid_record",
			Message: "the record starts from " + rep.Start.FEN() + ", the game from " + start}
	}
	res, err := recordResult(pgns[0])
	if err != nil {
		return command.BadRequest("invalid_record", err.Error())
	}
	return sg.Game.LoadRecord(now, by, rep.Moves, res, game.NoReason)
}

// refusalText is a core refusal's message for a per-game answer.
func refusalText(err error) string {
	if re, ok := err.(*game.RuleError); ok {
		return re.Message
	}
	return err.Error()
}
