package notation_test

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// The game service reads a client's move in whatever notation it comes in.
func ExampleParseAny() {
	p := xiangqi.NewPosition()
	for _, s := range []string{"h2e2", "C2=5", "炮二平五", "炮253", "炮23-53"} {
		m, err := notation.ParseAny(p, s)
		fmt.Println(s, m, err)
	}
	_, err := notation.ParseAny(p, "马325")
	fmt.Println(err)
	// Output:
	// h2e2 h2e2 <nil>
	// C2=5 h2e2 <nil>
	// 炮二平五 h2e2 <nil>
	// 炮253 h2e2 <nil>
	// 炮23-53 h2e2 <nil>
	// yz3 "马325": no horse on file 3
}

// The records endpoint writes a game in the notation a reader asks for.
func ExampleFormatLine() {
	start := xiangqi.NewPosition()
	moves, _ := notation.ParseLine(nil, start, []string{"炮二平五", "马8进7", "马二进三", "车9平8"})
	for _, name := range []string{"iccs", "wxf", "chinese-traditional", "chinese", "yz3-traditional", "yz4-traditional"} {
		n, _ := notation.ByName(name)
		line, _ := notation.FormatLine(n, start, moves)
		fmt.Println(name, line)
	}
	// Output:
	// iccs [h2e2 h9g7 h0g2 i9h9]
	// wxf [C2=5 H8+7 H2+3 R9=8]
	// chinese-traditional [砲二平五 馬8進7 馬二進三 車9平8]
	// chinese [炮二平五 马8进7 马二进三 车9平8]
	// yz3-traditional [砲253 馬873 馬233 車981]
	// yz4-traditional [砲23-53 馬81-73 馬21-33 車91-81]
}
