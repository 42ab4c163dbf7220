package tournament

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// Pairing explanations in the reader's language. The pairing stores one
// text per pair (English, naming the rule book's terms in Chinese beside
// it: swiss.go, knockout.go, roundrobin.go, groups.go, changes.go …); In
// says it whole in Chinese, the rule books' language, or in English, from
// the stored codes and the numbers in the text. Only the organiser's own
// note, quoted in a manual change, stays as typed.

// Language is a language the explanations are said in.
type Language string

// The languages of the explanations.
const (
	Chinese Language = "zh"
	English Language = "en"
)

// In is the explanation with its text (Opponent) said in lang; the codes
// are left as stored.
func (e Explanation) In(lang Language) Explanation {
	e.Opponent = explainText(e, lang)
	return e
}

// Chinese and English names of the Swiss codes (P-9, P-10, P-11).
func pickLabel(code string, lang Language) string {
	return swissLabel(code, lang, swiss.PickFirstRound, swiss.PickNumber, map[string]string{"firstRound": "round 1 goes by number",
		"floater": "came down from a higher score group", "imbalance": "the larger colour imbalance", "streak": "the longer run of one colour",
		"number": "by number: the smaller in odd rounds, the larger in even rounds"})
}

func reasonLabel(code string, lang Language) string {
	return swissLabel(code, lang, swiss.FirstRoundPair, swiss.FloatDown, map[string]string{"firstRound": "first-round pairing",
		"sameRank": "the same position in the opposite colour list", "offset": "the next in the opposite colour list",
		"sameList": "within its own list", "undo": "after undoing a pair above", "floatDown": "floated down to the next score group"})
}

func colourLabel(code string, lang Language) string {
	return swissLabel(code, lang, swiss.ColourFirstRound, swiss.ColourAvoidThree, map[string]string{
		"firstRound": "round 1: the smaller number red on odd tables, the larger on even tables",
		"fewerReds":  "fewer reds plays red", "alternate": "equal colours: black last time plays red",
		"longerBlacks": "both had black: the longer black run plays red", "shorterReds": "both had red: the shorter red run plays red",
		"numberSum":   "all equal: an odd sum of numbers gives the smaller number red, an even sum the larger",
		"higherScore": "from the third-last round the higher score's colour need decides",
		"avoidThree":  "swapped to avoid three more of one colour or three in a row"})
}

// swissLabel names a stored code of the Swiss values first…last: in
// English from en, in Chinese by the value's rule-book term; a code of no
// value stays as stored in Chinese.
func swissLabel[T interface {
	~int8
	String() string
	Label() string
}](code string, lang Language, first, last T, en map[string]string) string {
	if lang == English {
		return en[code]
	}
	for v := first; v <= last; v++ {
		if v.String() == code {
			return v.Label()
		}
	}
	return code
}

// The texts the pairing stores, as this package writes them.
var (
	reSwiss = regexp.MustCompile(`^no\. (\d+) chose first \((\w+), [^)]*\); [^(]*\((\w+)\)` +
		`(?:: position (\d+) in the list, (\d+) passed over as already met or forbidden, (\d+) as blocking a complete pairing` +
		`(?:, (\d+) as giving swapped colours, \+3, three in a row or a third float)?)?` +
		`; colours: [^(]*\((\w+)(?:, appendix 3 §4\((\d+)\))?\)$`)
	reBye        = regexp.MustCompile(`^S-7: lowest score group \(score (-?\d+)\), no bye before(?:; passed over (\d+) who had a bye and (\d+) whose bye would block a complete pairing)?(; this bye lets the others pair with the fewest floats \(P-4\))?$`)
	reRoundRobin = regexp.MustCompile(`^round-robin table, round (\d+): no\. (\d+) v no\. (\d+) \(S-1, first listed has red(?:; numbers by (\w+))?\)$`)
	reGroup      = regexp.MustCompile(`^group (\S+), round-robin table round (\d+): no\. (\d+) v no\. (\d+) \(S-5, S-1: first listed has red\)$`)
	reFinal      = regexp.MustCompile(`^N\+1 final: first and second after round (\d+) meet whether or not they have met \(S-4\)$`)
	reBracket    = regexp.MustCompile(`^bracket match (\S+): upper slot v lower slot \(S-3\)$`)
	reGame       = regexp.MustCompile(`^match (\S+), game (\d+) of the regular (\d+) \(S-3\)$`)
	reRapid      = regexp.MustCompile(`^match (\S+) level after (\d+) game\(s\): additional rapid game (\d+)(?: \(rapid match (\d+) game (\d+)\))? at (\S+) \(附加快棋, S-3\)$`)
	reTieRound   = regexp.MustCompile(`^R(\d+)-(\d+)$`)
	reTiePlacing = regexp.MustCompile(`^P(\d+)-(\d+)`)
	reRing       = regexp.MustCompile(`^the ring's holder meets the next challenger in registration order \(S-8\)$`)
	reManual     = regexp.MustCompile(`^changed by the organiser: (.*)$`)
	reSwapped    = regexp.MustCompile(`^table (\d+): colours swapped, (\S+) now red(.*)$`)
	reForced     = regexp.MustCompile(`^forced pair (\S+) \(red\) v (\S+) \(black\)(.*)$`)
	reByeMoved   = regexp.MustCompile(`^bye moved from (\S+) to (\S+), who takes table (\d+)(.*)$`)
	reHan        = regexp.MustCompile(`\p{Han}+`)
)

// explainText is e's text in lang: a stored text of a known shape said
// again from its codes and numbers, an unknown one from the codes alone.
func explainText(e Explanation, lang Language) string {
	s := e.Opponent
	zh := lang == Chinese
	if m := reSwiss.FindStringSubmatch(s); m != nil {
		var b strings.Builder
		if zh {
			fmt.Fprintf(&b, "%s号先编（%s）；%s", m[1], pickLabel(m[2], lang), reasonLabel(m[3], lang))
			if m[4] != "" {
				fmt.Fprintf(&b, "：异行序列第%s位，跳过已相遇或禁配者%s人、妨碍充分配对者%s人", m[4], m[5], m[6])
				if m[7] != "" {
					fmt.Fprintf(&b, "、因调换先后手、多三先或连三先、第三次浮动跳过%s人", m[7])
				}
			}
			fmt.Fprintf(&b, "；先后手：%s", colourLabel(m[8], lang))
			if m[9] != "" {
				fmt.Fprintf(&b, "（附录三二、4(%s)）", m[9])
			}
			return b.String()
		}
		fmt.Fprintf(&b, "no. %s chose first (%s); %s", m[1], pickLabel(m[2], lang), reasonLabel(m[3], lang))
		if m[4] != "" {
			fmt.Fprintf(&b, ": position %s in the list, %s passed over as already met or forbidden, %s as blocking a complete pairing", m[4], m[5], m[6])
			if m[7] != "" {
				fmt.Fprintf(&b, ", %s as giving swapped colours, +3, three in a row or a third float", m[7])
			}
		}
		fmt.Fprintf(&b, "; colours: %s", colourLabel(m[8], lang))
		if m[9] != "" {
			fmt.Fprintf(&b, " (appendix 3 §4(%s))", m[9])
		}
		return b.String()
	}
	if m := reRapid.FindStringSubmatch(s); m != nil {
		return rapidText(m, lang)
	}
	if !zh {
		if m := reBracket.FindStringSubmatch(s); m != nil {
			return fmt.Sprintf("%s: upper slot v lower slot (S-3)", tieWords(m[1], lang))
		}
		if m := reGame.FindStringSubmatch(s); m != nil {
			return fmt.Sprintf("%s: game %s of the regular %s (S-3)", tieWords(m[1], lang), m[2], m[3])
		}
		if reManual.MatchString(s) {
			return s // the organiser's note, if any, stays as typed
		}
		return englishOnly(s)
	}
	switch m := []string(nil); {
	case s == "":
		return ""
	case matchText(reBye, s, &m):
		out := fmt.Sprintf("S-7：最低分段（%s分）中此前未轮空者轮空", m[1])
		if m[2] != "" {
			out += fmt.Sprintf("；跳过已轮空者%s人、其轮空将妨碍充分配对者%s人", m[2], m[3])
		}
		if m[4] != "" {
			// The weighted matching moved the bye (swiss pair.go): said so,
			// or the reader would not see why this one sits out.
			out += "；此人轮空可使其余棋手以最少的浮动配对（P-4）"
		}
		return out
	case matchText(reRoundRobin, s, &m):
		out := fmt.Sprintf("循环赛对局秩序表第%s轮：%s号对%s号（S-1，列前者执红", m[1], m[2], m[3])
		if by := map[string]string{"rating": "按等级分", "draw": "按抽签", "registration": "按报名"}[m[4]]; by != "" {
			out += "；序号" + by
		}
		return out + "）"
	case matchText(reGroup, s, &m):
		return fmt.Sprintf("%s组循环赛对局秩序表第%s轮：%s号对%s号（S-5、S-1，列前者执红）", m[1], m[2], m[3], m[4])
	case matchText(reFinal, s, &m):
		return fmt.Sprintf("N+1决赛：第%s轮后的第一、二名无论是否相遇过都进行决赛（S-4）", m[1])
	case matchText(reBracket, s, &m):
		return fmt.Sprintf("淘汰赛%s：上签位对下签位（S-3）", tieWords(m[1], lang))
	case matchText(reGame, s, &m):
		return fmt.Sprintf("%s：常规%s局中的第%s局（S-3）", tieWords(m[1], lang), m[3], m[2])
	case matchText(reRing, s, &m):
		return "擂主迎战按报名顺序的下一位攻擂者（S-8）"
	case matchText(reManual, s, &m):
		return "组织者调整：" + manualZh(m[1])
	}
	// A text of no known shape: said from the codes alone.
	return fmt.Sprintf("第%d分段；%s；先后手：%s", e.ScoreGroup, reasonLabel(e.OpponentReason, Chinese), colourLabel(e.ColourReason, Chinese))
}

func matchText(re *regexp.Regexp, s string, m *[]string) bool {
	*m = re.FindStringSubmatch(s)
	return *m != nil
}

// manualZh renders the detail of an organiser's change; a note the
// organiser typed (after "; ") is kept as typed.
func manualZh(d string) string {
	var m []string
	switch {
	case matchText(reSwapped, d, &m):
		return fmt.Sprintf("第%s台交换先后手，%s执红", m[1], m[2]) + noteZh(m[3])
	case matchText(reForced, d, &m):
		return fmt.Sprintf("指定配对 %s（红）对 %s（黑）", m[1], m[2]) + noteZh(m[3])
	case matchText(reByeMoved, d, &m):
		return fmt.Sprintf("轮空由 %s 改为 %s，前者改下第%s台", m[1], m[2], m[3]) + noteZh(m[4])
	}
	return d
}

func noteZh(rest string) string {
	if note, ok := strings.CutPrefix(rest, "; "); ok {
		return "；备注：" + note
	}
	return ""
}

// englishOnly drops the Chinese terms the stored English text names beside
// their English meaning ("(附加快棋, S-3)" reads "(S-3)").
func englishOnly(s string) string {
	s = reHan.ReplaceAllString(s, "")
	for _, fix := range [][2]string{{"(, ", "("}, {", )", ")"}, {" ()", ""}, {"()", ""}, {"(; ", "("}} {
		s = strings.ReplaceAll(s, fix[0], fix[1])
	}
	return strings.TrimSpace(s)
}

// tieWords names a knockout tie as the page's bracket does ("第 1 轮第 2 组",
// "决赛"), never by its internal id; an id of no known shape stays as sent.
func tieWords(id string, lang Language) string {
	zh := lang == Chinese
	var m []string
	switch {
	case id == "F":
		return map[bool]string{true: "决赛", false: "the final"}[zh]
	case id == "3P":
		return map[bool]string{true: "三四名决赛", false: "the third-place match"}[zh]
	case matchText(reTieRound, id, &m):
		if zh {
			return fmt.Sprintf("第%s轮第%s组", m[1], m[2])
		}
		return fmt.Sprintf("round %s, match %s", m[1], m[2])
	case matchText(reTiePlacing, id, &m):
		if zh {
			return fmt.Sprintf("第%s–%s名排位赛", m[1], m[2])
		}
		return fmt.Sprintf("the match for places %s–%s", m[1], m[2])
	}
	return id
}

// rapidText renders an additional rapid game's explanation (S-3): the tie in
// words, which game of which rapid match, and the time control in words.
// Once the rapid match is named the text says the regular games were level
// (game 2 of a rapid match follows a decided game 1, so "level after 2 games"
// would be wrong); texts stored before then keep their count and give the
// game's number in the whole tie.
func rapidText(m []string, lang Language) string {
	tie, level, game, rm, rg, control := tieWords(m[1], lang), m[2], m[3], m[4], m[5], controlWords(m[6], lang)
	if lang == Chinese {
		if rm != "" {
			return fmt.Sprintf("%s常规对局战平：附加快棋第%s场第%s局，%s（S-3）", tie, rm, rg, control)
		}
		return fmt.Sprintf("%s前%s局战平：附加快棋，全场第%s局，%s（S-3）", tie, level, game, control)
	}
	if rm != "" {
		return fmt.Sprintf("%s level after the regular games: additional rapid match %s, game %s, at %s (S-3)", tie, rm, rg, control)
	}
	return fmt.Sprintf("%s level after %s game(s): additional rapid games, game %s of the tie, at %s (S-3)", tie, level, game, control)
}

// controlWords says a time control preset in words ("每方10分钟走40步，
// 此后每5分钟走30步"); a name that is no preset is said only as "快棋".
func controlWords(name string, lang Language) string {
	zh := lang == Chinese
	c, ok := clock.Preset(name)
	if !ok || len(c.Periods) == 0 {
		return map[bool]string{true: "快棋时限", false: "a rapid time control"}[zh]
	}
	var parts []string
	for i, p := range c.Periods {
		mins := p.Ms / 60000
		last := i == len(c.Periods)-1
		switch {
		case zh && i == 0 && p.Moves == 0:
			parts = append(parts, fmt.Sprintf("每方%d分钟", mins))
		case zh && i == 0:
			parts = append(parts, fmt.Sprintf("每方%d分钟走%d步", mins, p.Moves))
		case zh && last:
			parts = append(parts, fmt.Sprintf("此后每%d分钟走%d步", mins, p.Moves))
		case zh:
			parts = append(parts, fmt.Sprintf("再%d分钟走%d步", mins, p.Moves))
		case i == 0 && p.Moves == 0:
			parts = append(parts, fmt.Sprintf("%d minutes each", mins))
		case i == 0:
			parts = append(parts, fmt.Sprintf("%d minutes each for %d moves", mins, p.Moves))
		case last:
			parts = append(parts, fmt.Sprintf("then %d minutes for every %d moves", mins, p.Moves))
		default:
			parts = append(parts, fmt.Sprintf("then %d minutes for %d moves", mins, p.Moves))
		}
	}
	if zh {
		return "时限" + strings.Join(parts, "，")
	}
	return strings.Join(parts, ", ")
}
