package notation

import (
	"strings"
	"unicode"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// pieceChars[script][colour][kind] is the character written for a piece.
// B-2 names red 帥 仕 相 馬 車 砲 兵 and black 將 士 象 馬 車 炮 卒.
var pieceChars = [2][2][8]rune{
	Traditional: {
		xiangqi.Red:   {0, '帥', '仕', '相', '馬', '車', '砲', '兵'},
		xiangqi.Black: {0, '將', '士', '象', '馬', '車', '炮', '卒'},
	},
	Simplified: {
		xiangqi.Red:   {0, '帅', '仕', '相', '马', '车', '炮', '兵'},
		xiangqi.Black: {0, '将', '士', '象', '马', '车', '炮', '卒'},
	},
}

// readPiece maps every character accepted on input to a kind, whatever the
// colour or script: players and programs mix them freely, and the side to
// move already says whose piece it is.
var readPiece = map[rune]xiangqi.Kind{
	'帅': xiangqi.General, '帥': xiangqi.General, '将': xiangqi.General, '將': xiangqi.General,
	'仕': xiangqi.Advisor, '士': xiangqi.Advisor,
	'相': xiangqi.Elephant, '象': xiangqi.Elephant,
	'马': xiangqi.Horse, '馬': xiangqi.Horse, '傌': xiangqi.Horse,
	'车': xiangqi.Chariot, '車': xiangqi.Chariot, '俥': xiangqi.Chariot, '伡': xiangqi.Chariot,
	'炮': xiangqi.Cannon, '砲': xiangqi.Cannon, '包': xiangqi.Cannon,
	'兵': xiangqi.Soldier, '卒': xiangqi.Soldier,
}

// Words for direction (進 退 平) and for tandem pieces (前 中 後).
var (
	dirChars = [2]map[byte]rune{
		Traditional: {dirForward: '進', dirBackward: '退', dirSideways: '平'},
		Simplified:  {dirForward: '进', dirBackward: '退', dirSideways: '平'},
	}
	readDir = map[rune]byte{'進': dirForward, '进': dirForward, '退': dirBackward, '平': dirSideways}

	frontChar  = '前'
	middleChar = '中'
	rearChar   = [2]rune{Traditional: '後', Simplified: '后'}
)

// Position words, read in either script.
const (
	posFront = iota + 1
	posMiddle
	posRear
)

var readPos = map[rune]int{'前': posFront, '中': posMiddle, '后': posRear, '後': posRear}

// Red writes Chinese numerals, black Arabic digits (N-4, the common practice:
// 炮二平五, 馬8進7).
var chineseNumerals = [10]rune{0, '一', '二', '三', '四', '五', '六', '七', '八', '九'}

// readDigit returns the value of an Arabic digit, ASCII or full-width.
func readDigit(r rune) (int, bool) {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0'), true
	case r >= '０' && r <= '９':
		return int(r - '０'), true
	}
	return 0, false
}

// readNumeral returns the value of a digit or a Chinese numeral 一…九.
func readNumeral(r rune) (int, bool) {
	if v, ok := readDigit(r); ok {
		return v, true
	}
	for v, c := range chineseNumerals {
		if v > 0 && c == r {
			return v, true
		}
	}
	return 0, false
}

// number writes n (1…9) as the mover writes it in the Chinese notation.
func number(c xiangqi.Color, n int) string {
	if c == xiangqi.Red {
		return string(chineseNumerals[n])
	}
	return string(rune('0' + n))
}

// compact drops every kind of space, so "炮二 平五" and "h2 e2" read.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// describe names an unexpected character for an error message.
func describe(r rune) string {
	return "'" + string(r) + "'"
}

// narrow maps full-width forms (Ｃ２＝５, ｈ２ｅ２, the ideographic space) to
// their ASCII letters, digits and signs, as real records often write WXF and
// ICCS moves with a Chinese input method.
func narrow(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '！' && r <= '～':
			return r - '！' + '!'
		case r == '\u3000':
			return ' '
		}
		return r
	}, s)
}
