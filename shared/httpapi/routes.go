package httpapi

import (
	"slices"
	"strings"
)

// Route is one entry of the route table: the HTTP method and Go 1.22 pattern,
// the Lambda function (template.yaml logical id) that serves it, and who may call it.
type Route struct {
	Method, Path string
	Function     string
	Who          Roles
	handle       handler
}

// Role is one kind of caller a route admits: the role a token speaks for
// (O-1; a game's seat is a player), or, for a route that asks no token,
// RolePublic or RoleAnyone.
type Role string

// Roles of Route.Who. RolePublic, RoleAnyone and RoleAnyToken stand alone;
// the others combine ("player to move, scribe").
const (
	// RolePublic: anyone, without a token; a GET's answer may be cached.
	RolePublic Role = "public"
	// RoleAnyone: anyone, without a token, creates something; a deployment
	// may ask for its creation key (CreationKeyHeader).
	RoleAnyone Role = "anyone"
	// RoleAnyToken: any valid token, whoever it speaks for.
	RoleAnyToken Role = "any token"
	// RoleOrganiser: the event's organiser token.
	RoleOrganiser Role = roleOrganiser
	// RoleArbiter: an arbiter's token.
	RoleArbiter Role = roleArbiter
	// RoleChiefArbiter: the chief arbiter's token (裁判长): an arbiter's
	// powers and the two heavier penalties (O-2).
	RoleChiefArbiter Role = roleChief
	// RoleScribe: a scribe's token, for the tables it keeps.
	RoleScribe Role = roleScribe
	// RolePlayer: a player's token (a standalone game's seat), for their own games.
	RolePlayer Role = rolePlayer
	// RolePlayerToMove: a player's token while it is their turn.
	RolePlayerToMove Role = "player to move"
	// RoleCaptain: a team captain's token, for their own team.
	RoleCaptain Role = roleCaptain
	// RoleEntrant: anyone, without a token, while the event takes entries
	// (E-1); unlike RoleAnyone no creation key is asked: players enter
	// with the event's link, and the event's capacity bounds what they create.
	RoleEntrant Role = "entrant"
)

// Roles is who may call a route: any one of them.
type Roles []Role

// Has reports whether r is one of the roles.
func (rs Roles) Has(r Role) bool { return slices.Contains(rs, r) }

// NeedsToken reports whether a caller must show a token: every route but
// the public and the anyone ones.
func (rs Roles) NeedsToken() bool {
	return !rs.Has(RolePublic) && !rs.Has(RoleAnyone) && !rs.Has(RoleEntrant)
}

// String is the roles as prose, as the OpenAPI document writes them: "player to move, scribe".
func (rs Roles) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}

// Lambda functions, one per job (template.yaml logical ids).
const (
	FnTournaments = "Tournaments"
	FnPairRound   = "PairRound"
	FnSubmitMove  = "SubmitMove"
	FnPressClock  = "PressClock"
	FnDraw        = "Draw"
	FnRulings     = "Rulings"
	FnGames       = "Games"
	FnStandings   = "Standings"
	// FnWeb serves the web client's pages and assets (package web), not the API.
	FnWeb = "Web"
)

// Functions lists every Lambda function.
var Functions = []string{FnTournaments, FnPairRound, FnSubmitMove, FnPressClock, FnDraw, FnRulings, FnGames, FnStandings, FnWeb}

// Routes is the one table of every route (the Web function's pages too,
// served by the handler given WithPages: they have no API handler); template.yaml must list exactly
// these (a test holds them equal), and the OpenAPI document describes them.
var Routes = []Route{
	{"GET", "/openapi.json", FnTournaments, Roles{RolePublic}, (*API).openAPI},
	{"GET", "/rules", FnTournaments, Roles{RolePublic}, (*API).listRules},
	{"GET", "/rules/{id}", FnTournaments, Roles{RolePublic}, (*API).getRule},
	{"GET", "/asyncapi.yaml", FnTournaments, Roles{RolePublic}, (*API).asyncAPI},
	{"POST", "/tournaments", FnTournaments, Roles{RoleAnyone}, (*API).createTournament},
	{"GET", "/tournaments/{tid}", FnTournaments, Roles{RolePublic}, (*API).getTournament},
	{"POST", "/tournaments/{tid}/players", FnTournaments, Roles{RoleOrganiser}, (*API).registerPlayer},
	{"GET", "/tournaments/{tid}/players", FnTournaments, Roles{RolePublic}, viewed("GET /tournaments/{tid}/players", (*API).listPlayers)},
	{"POST", "/tournaments/{tid}/players/{pid}", FnTournaments, Roles{RoleOrganiser}, (*API).editPlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/remove", FnTournaments, Roles{RoleOrganiser}, (*API).removePlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/token", FnTournaments, Roles{RoleOrganiser}, (*API).reissuePlayerToken},
	{"POST", "/tournaments/{tid}/players/{pid}/withdraw", FnTournaments, Roles{RoleOrganiser}, (*API).withdrawPlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/expulsion", FnTournaments, Roles{RoleOrganiser}, (*API).decideExpulsion},
	{"POST", "/tournaments/{tid}/players/{pid}/pause", FnTournaments, Roles{RoleOrganiser}, (*API).pausePlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/resume", FnTournaments, Roles{RoleOrganiser}, (*API).resumePlayer},
	{"POST", "/tournaments/{tid}/officials", FnTournaments, Roles{RoleOrganiser}, (*API).addOfficial},
	{"GET", "/tournaments/{tid}/officials", FnTournaments, Roles{RoleOrganiser}, (*API).listOfficials},
	{"POST", "/tournaments/{tid}/officials/{oid}/token", FnTournaments, Roles{RoleOrganiser}, (*API).reissueOfficialToken},
	{"POST", "/tournaments/{tid}/token", FnTournaments, Roles{RoleOrganiser}, (*API).rotateOrganiserToken},
	{"POST", "/tournaments/{tid}/broadcast", FnTournaments, Roles{RoleOrganiser}, (*API).setBroadcast},
	{"POST", "/tournaments/{tid}/qr", FnTournaments, Roles{RoleOrganiser}, (*API).qrCodes},
	{"GET", "/me", FnTournaments, Roles{RoleAnyToken}, (*API).me},
	{"POST", "/games", FnGames, Roles{RoleAnyone}, (*API).createGame},
	{"GET", "/games/{gid}", FnGames, Roles{RolePublic}, (*API).getGame},
	{"GET", "/games/{gid}/record", FnGames, Roles{RolePublic}, (*API).gameRecord},
	{"POST", "/games/import", FnGames, Roles{RoleAnyone}, (*API).importGames},
	{"POST", "/games/{gid}/record", FnRulings, Roles{RoleArbiter, RoleChiefArbiter, RoleScribe}, (*API).loadRecord},
	{"POST", "/games/{gid}/moves", FnSubmitMove, Roles{RolePlayerToMove, RoleScribe}, (*API).submitMove},
	{"POST", "/games/{gid}/clock", FnPressClock, Roles{RolePlayerToMove, RoleScribe}, (*API).pressClock},
	{"POST", "/games/{gid}/arrive", FnPressClock, Roles{RolePlayer, RoleScribe, RoleArbiter, RoleChiefArbiter}, (*API).arrive},
	{"POST", "/games/{gid}/adjourn", FnRulings, Roles{RolePlayerToMove, RoleScribe, RoleArbiter, RoleChiefArbiter, RoleOrganiser}, (*API).adjourn},
	{"POST", "/games/{gid}/resume", FnRulings, Roles{RoleScribe, RoleArbiter, RoleChiefArbiter, RoleOrganiser}, (*API).resume},
	{"POST", "/games/{gid}/draw", FnDraw, Roles{RolePlayer, RoleScribe}, (*API).draw},
	{"POST", "/games/{gid}/resign", FnDraw, Roles{RolePlayer}, (*API).resign},
	{"POST", "/games/{gid}/claims", FnDraw, Roles{RolePlayer, RoleScribe}, (*API).claim},
	{"POST", "/games/{gid}/result", FnRulings, Roles{RoleArbiter, RoleChiefArbiter, RoleScribe, RoleOrganiser}, (*API).recordResult},
	{"POST", "/games/{gid}/rulings", FnRulings, Roles{RoleArbiter, RoleChiefArbiter, RoleScribe, RoleOrganiser}, (*API).rule},
	{"POST", "/games/{gid}/votes", FnRulings, Roles{RoleArbiter, RoleChiefArbiter, RoleOrganiser}, (*API).vote},
	{"POST", "/games/{gid}/signatures", FnRulings, Roles{RolePlayer, RoleScribe, RoleArbiter, RoleChiefArbiter, RoleOrganiser}, (*API).sign},
	{"POST", "/tournaments/{tid}/rounds", FnPairRound, Roles{RoleOrganiser}, (*API).pairRound},
	{"GET", "/tournaments/{tid}/rounds", FnPairRound, Roles{RolePublic}, (*API).listRounds},
	{"GET", "/tournaments/{tid}/rounds/{n}", FnPairRound, Roles{RolePublic}, (*API).getRound},
	{"GET", "/tournaments/{tid}/rounds/{n}/job", FnPairRound, Roles{RolePublic}, (*API).getPairJob},
	{"POST", "/tournaments/{tid}/rounds/{n}/changes", FnPairRound, Roles{RoleOrganiser}, (*API).changeRound},
	{"POST", "/tournaments/{tid}/rounds/{n}/start", FnPairRound, Roles{RoleOrganiser, RoleArbiter, RoleChiefArbiter}, (*API).startRound},
	{"GET", "/tournaments/{tid}/standings", FnStandings, Roles{RolePublic}, (*API).getStandings},
	{"GET", "/tournaments/{tid}/crosstable", FnStandings, Roles{RolePublic}, (*API).getCrosstable},
	{"GET", "/tournaments/{tid}/games", FnStandings, Roles{RolePublic}, viewed("GET /tournaments/{tid}/games", (*API).listEventGames)},
	{"GET", "/tournaments/{tid}/ratings", FnStandings, Roles{RolePublic}, viewed("GET /tournaments/{tid}/ratings", (*API).getRatings)},
	{"GET", "/tournaments/{tid}/ring", FnStandings, Roles{RolePublic}, (*API).getRing},
	{"GET", "/tournaments/{tid}/discipline", FnStandings, Roles{RolePublic}, (*API).getDiscipline},
	{"POST", "/tournaments/{tid}/teams", FnTournaments, Roles{RoleOrganiser}, (*API).registerTeam},
	{"GET", "/tournaments/{tid}/teams", FnTournaments, Roles{RolePublic}, viewed("GET /tournaments/{tid}/teams", (*API).listTeams)},
	{"POST", "/tournaments/{tid}/rounds/{n}/lineups", FnPairRound, Roles{RoleCaptain, RoleOrganiser}, (*API).submitLineup},
	{"POST", "/tournaments/{tid}/teams/{mid}/withdraw", FnTournaments, Roles{RoleOrganiser}, (*API).withdrawTeam},
	{"POST", "/tournaments/{tid}/teams/{mid}/token", FnTournaments, Roles{RoleOrganiser}, (*API).reissueCaptainToken},
	{"GET", "/tournaments/{tid}/export", FnTournaments, Roles{RoleOrganiser}, (*API).exportEvent},
	{"GET", "/tournaments/{tid}/usage", FnTournaments, Roles{RoleOrganiser}, (*API).getUsage},
	{"POST", "/tournaments/import", FnTournaments, Roles{RoleAnyone}, (*API).importEvent},
	{"POST", "/tournaments/{tid}/entries/open", FnTournaments, Roles{RoleOrganiser}, (*API).openEntries},
	{"POST", "/tournaments/{tid}/entries/close", FnTournaments, Roles{RoleOrganiser}, (*API).closeEntries},
	{"POST", "/tournaments/{tid}/entries", FnTournaments, Roles{RoleEntrant}, (*API).enter},
	{"GET", "/tournaments/{tid}/entries", FnTournaments, Roles{RoleOrganiser}, (*API).listEntries},
	{"POST", "/tournaments/{tid}/players/{pid}/approve", FnTournaments, Roles{RoleOrganiser}, (*API).approveEntry},
	{"POST", "/tournaments/{tid}/players/{pid}/reject", FnTournaments, Roles{RoleOrganiser}, (*API).rejectEntry},
	{"POST", "/tournaments/{tid}/rounds/{n}/checkin", FnTournaments, Roles{RolePlayer, RoleOrganiser, RoleArbiter, RoleChiefArbiter}, (*API).checkIn},
	{"POST", "/tournaments/{tid}/checkin", FnTournaments, Roles{RoleOrganiser}, (*API).configureCheckIn},
	{"GET", "/tournaments/{tid}/rounds/{n}/checkin", FnTournaments, Roles{RoleOrganiser, RoleArbiter, RoleChiefArbiter}, (*API).checkInDesk},
	{"POST", "/festivals", FnTournaments, Roles{RoleAnyone}, (*API).createFestival},
	{"GET", "/festivals/{fid}", FnTournaments, Roles{RolePublic}, (*API).getFestival},
	{"POST", "/festivals/{fid}/officials", FnTournaments, Roles{RoleOrganiser}, (*API).addFestivalOfficial},
	{"POST", "/tournaments/{tid}/mirror", FnTournaments, Roles{RoleOrganiser}, (*API).startMirror},
	{"GET", "/tournaments/{tid}/mirror", FnTournaments, Roles{RoleOrganiser}, (*API).getMirror},
	{"POST", "/tournaments/{tid}/mirror/stop", FnTournaments, Roles{RoleOrganiser}, (*API).stopMirror},
	{"POST", "/tournaments/{tid}/mirror/takeover", FnTournaments, Roles{RoleOrganiser}, (*API).takeoverMirror},
	{"POST", "/tournaments/{tid}/mirror/handover", FnTournaments, Roles{RoleOrganiser}, (*API).handoverMirror},
	{"POST", "/tournaments/{tid}/mirror/replica", FnTournaments, Roles{RoleAnyone}, (*API).replicaMirror},
	{"POST", "/tournaments/{tid}/mirror/changes", FnTournaments, Roles{RolePublic}, (*API).applyMirror},
	{"GET", "/", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/t/{tid}", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/t/{tid}/live", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/g/{gid}", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/t/{tid}/enter", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/f/{fid}", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/assets/{name...}", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/help", FnWeb, Roles{RolePublic}, nil},
	{"GET", "/help/{name}", FnWeb, Roles{RolePublic}, nil},
}
