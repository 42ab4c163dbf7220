// Package swiss pairs one round of a Swiss event (积分编排制, S-2) with
// the positional method 定位编排法 of the 2011 rules, appendix 3 (shared/RULES.md
// P-1…P-12, S-6, S-7): score groups from the top, red-due and black-due
// lists, a first picker per group, 同位/错位/通行/拆对/下调 choices and the
// colour cases of §4. A maximum-matching oracle (package matching) decides
// what is achievable, so the hand method never blocks a complete pairing
// (P-8). Each round is optimal (see optimum.go): score boundaries crossed
// as few times as possible boundary by boundary from the top (P-4, P-10
// 拆对), then third floats (P-6, a limit), then colour faults (P-8, a
// wish); when the walk
// misses the lower bound, one weighted matching finds the optimum (fields
// up to exactLimit players; bigger ones in a window of score levels around
// the trouble) and the walk is redone around it, so the positional order
// only breaks ties. Every pair carries an explanation a
// chief arbiter can check by hand.
package swiss

// Status is a player's state before the round being paired (S-6).
type Status int8

// Player states. Only Active players are paired.
const (
	Active    Status = iota
	Withdrawn        // left the event: results stand, never paired again
	Paused           // sits this round out and may return
	NotJoined        // late entry that has not joined yet
)

// Side is what a player did in one past round.
type Side int8

// Sides of a round record. A bye and an absence count neither as a game
// nor as a colour (S-7).
const (
	Absent Side = iota
	Red
	Black
	Bye
)

// String returns the stable code of the side.
func (s Side) String() string {
	switch s {
	case Red:
		return "red"
	case Black:
		return "black"
	case Bye:
		return "bye"
	}
	return "absent"
}

// Float records a move between score groups (上调/下调, P-6).
type Float int8

// Float directions, from the point of view of the player.
const (
	NoFloat Float = iota
	Down          // paired with a lower score (下调)
	Up            // paired with a higher score (上调)
)

// RoundRecord is one past round of a player.
type RoundRecord struct {
	Side     Side
	Opponent int   // opponent's pairing number; 0 without a game
	Float    Float // a float that counts for P-6; callers leave out one forced on a player alone in its score group (appendix 3 §1.9)
	Pending  bool  // game unfinished when this round is paired: counts as a draw (P-12)
}

// Player is one entrant as the pairing sees it.
type Player struct {
	Number  int    // pairing number (序号), unique, > 0
	Rating  int    // used only by callers that seed (P-3)
	Club    string // for optional same-club avoidance (P-5)
	Status  Status
	Score   int           // points from finished games and byes, in K-1 units
	History []RoundRecord // one record per past round, oldest first
}

// FirstRound chooses how round 1 is paired (P-3).
type FirstRound int8

// First-round methods.
const (
	NearNumber FirstRound = iota // 近号配对: 1-2, 4-3, 5-6, 8-7 …
	TopBottom                    // 首尾配对: 1-n, (n-1)-2 …
	Halves                       // 对半交叉: 1-(n/2+1), (n/2+2)-2 …
)

// Input is everything needed to pair one round.
type Input struct {
	Players []Player
	Rounds  int // total rounds of the event
	Round   int // the round to pair, 1-based; History holds Round-1 records
	First   FirstRound
	// DrawPoints is what an unfinished game counts for pairing (P-12).
	DrawPoints int
	// Forbidden pairs of pairing numbers never meet (P-5).
	Forbidden [][2]int
	// AvoidSameClub keeps club mates apart (P-5, only when the event says so).
	AvoidSameClub bool
}

// Board is one pair of the round: a table with its red and black player.
type Board struct {
	Table      int // 1-based, in score-group order
	Red, Black int // pairing numbers
	RedFloat   Float
	BlackFloat Float
	Why        Explanation
}

// Round is a paired round.
type Round struct {
	Round  int
	Boards []Board
	Bye    int // pairing number of the player with the bye; 0 when none
	// ByeWhy says why this player has the bye.
	ByeWhy string
}

// SeedNumbers assigns pairing numbers for round 1 (P-3, appendix 3 §2.1):
// seeds, in the order they drew, take the odd numbers 1, 3, 5 …; the other
// players, in the order they drew, take the even numbers 2, 4, 6 …. When
// one side is larger, its extra players take the numbers the other side
// leaves, so every number 1…seeds+others is used once, each side in
// ascending order.
func SeedNumbers(seeds, others int) (seedNumbers, otherNumbers []int) {
	n := seeds + others
	var odd, even []int
	for k := 1; k <= n; k++ {
		if k%2 == 1 {
			odd = append(odd, k)
		} else {
			even = append(even, k)
		}
	}
	if seeds <= len(odd) {
		return odd[:seeds], merge(even, odd[seeds:])
	}
	return merge(odd, even[others:]), even[:others]
}

// merge returns the ascending union of two ascending lists.
func merge(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		if len(b) == 0 || len(a) > 0 && a[0] < b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}
