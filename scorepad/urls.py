from django.urls import path, register_converter

from .views import (
    club_director,
    clubs,
    daily,
    games,
    help,
    history,
    home,
    households,
    install,
    meld,
    practice,
    practice_review,
    puzzles,
    rules,
    scoreboard,
    seasons,
    tables,
)


class TokenConverter:
    """A link's token as the site makes them (``secrets.token_urlsafe``): letters, digits, - and _.
    Anything else in its place (a NUL, which PostgreSQL cannot even compare) is no address: a 404."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

urlpatterns = [
    path("", home.home, name="home"),
    path("meld/", meld.meld_calculator, name="meld"),
    path("households/<int:household_id>/games/", history.history, name="history"),
    path("households/<int:household_id>/statistics/", history.statistics, name="statistics"),
    path("households/<int:household_id>/import/", history.game_import_view, name="game_import"),
    path("households/<int:household_id>/hands.csv", history.household_csv, name="household_csv"),
    path("households/new/", households.household_new, name="household_new"),
    path("households/restore/", history.household_restore_view, name="household_restore"),
    path("households/<int:household_id>/backup.json", history.household_backup_json, name="household_backup"),
    path("households/<int:household_id>/", households.household_detail, name="household"),
    path("households/<int:household_id>/players/", households.player_add, name="player_add"),
    path("households/<int:household_id>/invites/", households.invite_new, name="invite_new"),
    path(
        "households/<int:household_id>/invites/<int:invite_id>/revoke/",
        households.invite_revoke_view,
        name="invite_revoke",
    ),
    path(
        "households/<int:household_id>/members/<int:user_id>/remove/",
        households.member_remove_view,
        name="member_remove",
    ),
    path(
        "households/<int:household_id>/players/<int:player_id>/", households.player_edit, name="player_edit"
    ),
    path("households/<int:household_id>/players/<int:player_id>/me/", households.player_me, name="player_me"),
    path("invite/<token:token>/", households.invite_join, name="invite"),
    path("households/<int:household_id>/games/new/", games.game_new, name="game_new"),
    path("games/<int:game_id>/", games.game_detail, name="game"),
    path("games/<int:game_id>/hands/", games.hand_create, name="hand_create"),
    path("games/<int:game_id>/undo/", games.game_undo, name="game_undo"),
    path("games/<int:game_id>/redo/", games.game_redo, name="game_redo"),
    path("games/<int:game_id>/abandon/", games.game_abandon_view, name="game_abandon"),
    path("games/<int:game_id>/delete/", games.game_delete_view, name="game_delete"),
    path("games/<int:game_id>/hands/<int:hand_id>/edit/", games.hand_edit_view, name="hand_edit"),
    path("games/<int:game_id>/hands/<int:hand_id>/delete/", games.hand_delete_view, name="hand_delete"),
    path("games/<int:game_id>/export.json", history.game_export_json, name="game_export"),
    # Practice mode: games against the bots (views/practice.py)
    path("practice/", practice.practice_home, name="practice"),
    path("practice/history/", practice.practice_history_view, name="practice_history"),
    path("practice/<int:practice_id>/", practice.practice_game, name="practice_game"),
    path("practice/<int:practice_id>/act/", practice.practice_act_view, name="practice_act"),
    path("practice/<int:practice_id>/undo/", practice.practice_undo_view, name="practice_undo"),
    path("practice/<int:practice_id>/next/", practice.practice_next_view, name="practice_next"),
    path("practice/<int:practice_id>/rematch/", practice.practice_rematch_view, name="practice_rematch"),
    # Practice that teaches (views/practice_review.py): review, replay, step through, log
    path(
        "practice/<int:practice_id>/hands/<int:hand>/review/",
        practice_review.practice_review_view,
        name="practice_review",
    ),
    path(
        "practice/<int:practice_id>/hands/<int:hand>/step/",
        practice_review.practice_step_view,
        name="practice_step",
    ),
    path(
        "practice/<int:practice_id>/hands/<int:hand>/log/",
        practice_review.practice_log_view,
        name="practice_hand_log",
    ),
    path(
        "practice/<int:practice_id>/hands/<int:hand>/replay/",
        practice_review.practice_replay_view,
        name="practice_replay",
    ),
    # The daily deal: one deal a day per variant, the same for everyone (views/daily.py)
    path("daily/", daily.daily_view, name="daily"),
    path("daily/archive/", daily.daily_archive_view, name="daily_archive"),
    path("daily/settings/", daily.daily_settings_view, name="daily_settings"),
    path("daily/<str:day>/<str:variant>/", daily.daily_deal_view, name="daily_deal"),
    path("daily/<str:day>/<str:variant>/play/", daily.daily_play_view, name="daily_play"),
    # Puzzles: positions from the bots' hands where one answer is clearly best (views/puzzles.py)
    path("puzzles/", puzzles.puzzles_home, name="puzzles"),
    path("puzzles/today/", puzzles.puzzle_today, name="puzzle_today"),
    path("puzzles/history/", puzzles.puzzle_history, name="puzzle_history"),
    path("puzzles/run/<str:variant>/", puzzles.puzzle_run, name="puzzle_run"),
    path("puzzles/<str:key>/", puzzles.puzzle_view, name="puzzle"),
    path("puzzles/<str:key>/answer/", puzzles.puzzle_answer_view, name="puzzle_answer"),
    path("games/<int:game_id>/share/", scoreboard.game_share, name="game_share"),
    path("games/<int:game_id>/live/", scoreboard.game_live, name="game_live"),
    path("s/<token:share_token>/", scoreboard.scoreboard, name="scoreboard"),
    # The rules pages and Learn to play (views/rules.py)
    path("rules/", rules.rules_index, name="rules_index"),
    path("rules/words/", rules.rules_words, name="rules_words"),
    path("rules/games/<int:game_id>/", rules.rules_game, name="rules_game"),
    path("rules/practice/<int:practice_id>/", rules.rules_practice, name="rules_practice"),
    path("rules/<str:variant_id>/", rules.rules_variant, name="rules"),
    path("rules/<str:variant_id>/learn/", rules.learn, name="learn"),
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("offline/", install.offline, name="offline"),
    # Club night: the director's event pages and each table's phone (views/clubs.py)
    path("households/<int:household_id>/club/new/", clubs.club_event_new, name="club_event_new"),
    path("club/<int:event_id>/", clubs.club_event, name="club_event"),
    path("club/<int:event_id>/check-in/", clubs.club_check_in, name="club_check_in"),
    path("club/<int:event_id>/leave/", clubs.club_leave, name="club_leave"),
    path("club/<int:event_id>/rounds/start/", clubs.club_round_start, name="club_round_start"),
    path("club/<int:event_id>/rounds/close/", clubs.club_round_close, name="club_round_close"),
    path("club/<int:event_id>/tables/", clubs.club_tables, name="club_tables"),
    path("club/<int:event_id>/tables/make/", clubs.club_cards_make, name="club_cards_make"),
    path("club/<int:event_id>/tables/<int:card_id>/qr.svg", clubs.club_table_qr, name="club_table_qr"),
    path("club/t/<token:table_token>/", clubs.club_table, name="club_table"),
    path("club/t/<token:table_token>/hand/", clubs.club_table_hand, name="club_table_hand"),
    path("club/t/<token:table_token>/confirm/", clubs.club_table_confirm, name="club_table_confirm"),
    path("club/t/<token:table_token>/dispute/", clubs.club_table_dispute, name="club_table_dispute"),
    # Club night, the director's side: progress, clock, corrections, live standings, prizes, exports
    # (views/club_director.py)
    path("club/<int:event_id>/director/", club_director.club_director, name="club_director"),
    path("club/<int:event_id>/director/clock/", club_director.club_clock, name="club_clock"),
    path("club/<int:event_id>/director/bell/", club_director.club_bell, name="club_bell"),
    path(
        "club/<int:event_id>/tables/<int:card_id>/unlock/",
        club_director.club_table_unlock,
        name="club_table_unlock",
    ),
    path(
        "club/<int:event_id>/tables/<int:card_id>/pin/", club_director.club_table_pin, name="club_table_pin"
    ),
    path(
        "club/<int:event_id>/hands/<int:table_hand_id>/settle/",
        club_director.club_hand_settle,
        name="club_hand_settle",
    ),
    path(
        "club/<int:event_id>/hands/<int:club_hand_id>/correct/",
        club_director.club_hand_correct,
        name="club_hand_correct",
    ),
    path(
        "club/<int:event_id>/hands/<int:club_hand_id>/delete/",
        club_director.club_hand_delete,
        name="club_hand_delete",
    ),
    path("club/<int:event_id>/standings/", club_director.club_final, name="club_final"),
    path("club/<int:event_id>/sheets/", club_director.club_sheets, name="club_sheets"),
    path("club/<int:event_id>/results.csv", club_director.club_results_csv, name="club_results_csv"),
    path("club/<int:event_id>/hands.csv", club_director.club_hands_csv, name="club_hands_csv"),
    path("club/s/<str:standings_token>/", club_director.club_standings_live, name="club_standings_live"),
    # A club's seasons: standings over many nights, ratings, a member's nights (views/seasons.py)
    path("households/<int:household_id>/club/seasons/", seasons.club_seasons, name="club_seasons"),
    path("club/seasons/<int:season_id>/", seasons.club_season, name="club_season"),
    path("club/seasons/<int:season_id>/edit/", seasons.club_season_edit, name="club_season_edit"),
    path("club/seasons/<int:season_id>/nights/", seasons.club_season_night, name="club_season_night"),
    path("club/seasons/<int:season_id>/standings.csv", seasons.club_season_csv, name="club_season_csv"),
    path(
        "club/seasons/<int:season_id>/members/<int:player_id>/",
        seasons.club_season_member,
        name="club_season_member",
    ),
    path(  # club night: the room's standings pushed to each screen as they change
        "club/s/<str:standings_token>/events/",
        club_director.club_standings_events,
        name="club_standings_events",
    ),
    # Play together: private tables by link, QR code or short code (views/tables.py); their keywords
    # are named apart from the club night's table_id and the invitation's token
    path("tables/", tables.tables_new, name="tables_new"),
    path("tables/code/", tables.table_code, name="table_code"),
    path("tables/join/<token:link_token>/", tables.table_join, name="table_join"),
    path("tables/join/<token:link_token>/seat/<int:seat>/", tables.table_take, name="table_take"),
    path(
        "tables/join/<token:link_token>/seat/<int:seat>/as-me/", tables.table_sit_as_view, name="table_sit_as"
    ),
    path("tables/join/<token:link_token>/qr.svg", tables.table_qr, name="table_qr"),
    path("tables/<int:private_table_id>/", tables.table_play, name="table_play"),
    path("tables/<int:private_table_id>/act/", tables.table_act_view, name="table_act"),
    path("tables/<int:private_table_id>/next/", tables.table_next_view, name="table_next"),
    path("tables/<int:private_table_id>/rematch/", tables.table_rematch_view, name="table_rematch"),
    path("tables/<int:private_table_id>/say/", tables.table_say_view, name="table_say"),
    path("tables/<int:private_table_id>/leave/", tables.table_quit_view, name="table_quit"),
    path("tables/<int:private_table_id>/host/", tables.table_host_view, name="table_host"),
    path("tables/<int:private_table_id>/events/", tables.table_events, name="table_events"),
    # Help for players (views/help.py)
    path("help/", help.help_index, name="help_index"),
    path("help/<slug:slug>/", help.help_page, name="help"),
]
