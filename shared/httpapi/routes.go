package httpapi

// Route is one entry of the route table: the HTTP method and Go 1.22 pattern,
// the Lambda function (template.yaml logical id) that serves it, and who may call it.
type Route struct {
	Method, Path string
	Function     string
	Who          string
	handle       handler
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
	{"GET", "/openapi.json", FnTournaments, "public", (*API).openAPI},
	{"GET", "/rules", FnTournaments, "public", (*API).listRules},
	{"GET", "/rules/{id}", FnTournaments, "public", (*API).getRule},
	{"GET", "/asyncapi.yaml", FnTournaments, "public", (*API).asyncAPI},
	{"POST", "/tournaments", FnTournaments, "anyone", (*API).createTournament},
	{"GET", "/tournaments/{tid}", FnTournaments, "public", (*API).getTournament},
	{"POST", "/tournaments/{tid}/players", FnTournaments, "organiser", (*API).registerPlayer},
	{"GET", "/tournaments/{tid}/players", FnTournaments, "public", (*API).listPlayers},
	{"POST", "/tournaments/{tid}/players/{pid}", FnTournaments, "organiser", (*API).editPlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/remove", FnTournaments, "organiser", (*API).removePlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/token", FnTournaments, "organiser", (*API).reissuePlayerToken},
	{"POST", "/tournaments/{tid}/players/{pid}/withdraw", FnTournaments, "organiser", (*API).withdrawPlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/pause", FnTournaments, "organiser", (*API).pausePlayer},
	{"POST", "/tournaments/{tid}/players/{pid}/resume", FnTournaments, "organiser", (*API).resumePlayer},
	{"POST", "/tournaments/{tid}/officials", FnTournaments, "organiser", (*API).addOfficial},
	{"GET", "/tournaments/{tid}/officials", FnTournaments, "organiser", (*API).listOfficials},
	{"POST", "/tournaments/{tid}/officials/{oid}/token", FnTournaments, "organiser", (*API).reissueOfficialToken},
	{"POST", "/tournaments/{tid}/token", FnTournaments, "organiser", (*API).rotateOrganiserToken},
	{"GET", "/me", FnTournaments, "any token", (*API).me},
	{"POST", "/games", FnGames, "anyone", (*API).createGame},
	{"GET", "/games/{gid}", FnGames, "public", (*API).getGame},
	{"GET", "/games/{gid}/record", FnGames, "public", (*API).gameRecord},
	{"POST", "/games/import", FnGames, "anyone", (*API).importGames},
	{"POST", "/games/{gid}/record", FnRulings, "arbiter, scribe", (*API).loadRecord},
	{"POST", "/games/{gid}/moves", FnSubmitMove, "player to move, scribe", (*API).submitMove},
	{"POST", "/games/{gid}/clock", FnPressClock, "player to move, scribe", (*API).pressClock},
	{"POST", "/games/{gid}/arrive", FnPressClock, "player, scribe, arbiter", (*API).arrive},
	{"POST", "/games/{gid}/draw", FnDraw, "player, scribe", (*API).draw},
	{"POST", "/games/{gid}/resign", FnDraw, "player", (*API).resign},
	{"POST", "/games/{gid}/claims", FnDraw, "player, scribe", (*API).claim},
	{"POST", "/games/{gid}/result", FnRulings, "arbiter, scribe, organiser", (*API).recordResult},
	{"POST", "/games/{gid}/rulings", FnRulings, "arbiter", (*API).rule},
	{"POST", "/tournaments/{tid}/rounds", FnPairRound, "organiser", (*API).pairRound},
	{"GET", "/tournaments/{tid}/rounds", FnPairRound, "public", (*API).listRounds},
	{"GET", "/tournaments/{tid}/rounds/{n}", FnPairRound, "public", (*API).getRound},
	{"POST", "/tournaments/{tid}/rounds/{n}/changes", FnPairRound, "organiser", (*API).changeRound},
	{"POST", "/tournaments/{tid}/rounds/{n}/start", FnPairRound, "organiser, arbiter", (*API).startRound},
	{"GET", "/tournaments/{tid}/standings", FnStandings, "public", (*API).getStandings},
	{"GET", "/tournaments/{tid}/crosstable", FnStandings, "public", (*API).getCrosstable},
	{"GET", "/tournaments/{tid}/games", FnStandings, "public", (*API).listEventGames},
	{"GET", "/tournaments/{tid}/ratings", FnStandings, "public", (*API).getRatings},
	{"GET", "/tournaments/{tid}/ring", FnStandings, "public", (*API).getRing},
	{"POST", "/tournaments/{tid}/teams", FnTournaments, "organiser", (*API).registerTeam},
	{"GET", "/tournaments/{tid}/teams", FnTournaments, "public", (*API).listTeams},
	{"POST", "/tournaments/{tid}/rounds/{n}/lineups", FnPairRound, "captain, organiser", (*API).submitLineup},
	{"POST", "/tournaments/{tid}/teams/{mid}/withdraw", FnTournaments, "organiser", (*API).withdrawTeam},
	{"POST", "/tournaments/{tid}/teams/{mid}/token", FnTournaments, "organiser", (*API).reissueCaptainToken},
	{"GET", "/tournaments/{tid}/export", FnTournaments, "organiser", (*API).exportEvent},
	{"GET", "/tournaments/{tid}/usage", FnTournaments, "organiser", (*API).getUsage},
	{"POST", "/tournaments/import", FnTournaments, "anyone", (*API).importEvent},
	{"GET", "/", FnWeb, "public", nil},
	{"GET", "/t/{tid}", FnWeb, "public", nil},
	{"GET", "/g/{gid}", FnWeb, "public", nil},
	{"GET", "/assets/{name...}", FnWeb, "public", nil},
}
