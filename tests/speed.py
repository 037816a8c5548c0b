"""How hard the property tests try: the full counts under ``HYPOTHESIS_PROFILE=ci`` (CI), fewer by
default (``make test``), fewest under ``quick`` (``make test-quick``, the loop a contributor waits for).

``tests/conftest.py`` loads the profile. A test that names its own count writes
``@settings(max_examples=examples(300))``: 300 in CI, an eighth of it (at least 10) by default, a
sixteenth (at least 5) in the quick loop.
"""

import os

from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
FULL = PROFILE == "ci"

# Generation speed is no property of the app: a loaded machine must not fail a test for it.
SLOW_IS_FINE = [HealthCheck.too_slow]
settings.register_profile(
    "ci", deadline=None, print_blob=True, suppress_health_check=SLOW_IS_FINE
)  # counts as each test names them
settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=SLOW_IS_FINE)
settings.register_profile("quick", max_examples=10, deadline=None, suppress_health_check=SLOW_IS_FINE)


def examples(n: int) -> int:
    """``n`` under the ci profile; otherwise a fraction of it, never fewer than 10 (5 in the quick loop), nor more than n."""
    if FULL:
        return n
    return min(n, max(5, n // 16)) if PROFILE == "quick" else min(n, max(10, n // 8))


def load() -> None:
    settings.load_profile(PROFILE)


def kind(item) -> int:
    """pytest-django's order of a test: 0 uses the database, 1 transactional (the browser tests'
    live server, the concurrency tests), 2 no database."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    if (marker and marker.kwargs.get("transaction")) or {"live_server", "transactional_db"} & set(fixtures):
        return 1
    return 0 if marker or "db" in fixtures else 2


def long(item) -> bool:
    """A test that runs for tens of seconds with no database (``@pytest.mark.long``)."""
    return kind(item) == 2 and item.get_closest_marker("long") is not None


# Seconds each of the longest tests took in `make test` (3 workers, this 2-core machine, quiet,
# 2026-12-06; docs/performance.md): share_out deals the long and the transactional tests longest
# first, each to the worker with the fewest seconds so far. A test not named here counts as GUESS
# of its kind; a name is a test's id, or its function's for every parameter.
SECONDS = {
    "tests/host/test_install.py::test_make_host_installs_keeps_everything_on_a_re_run_upgrades_and_restores_a_backup": 70,
    "tests/browser/test_whole_evening.py::test_a_whole_evening_on_five_phones": 44,
    "tests/browser/test_evenings.py::test_an_evening_on_a_phone[hangzhou]": 30,
    "tests/browser/test_night.py::test_a_night_of_two_tables_on_eight_phones": 21,
    "tests/browser/test_whole_pages.py::test_every_tap_and_every_back_lands_on_a_whole_page": 16,
    "tests/browser/test_trust_and_pay.py::test_four_phones_check_each_hand_fix_a_flagged_one_and_pay_by_the_payees_codes": 14,
    "tests/browser/test_evenings.py::test_an_evening_on_a_phone[zhuji]": 14,
    "tests/browser/test_evenings.py::test_an_evening_on_a_phone[wuyi2]": 12,
    "tests/browser/test_evenings.py::test_an_evening_on_a_phone[yiwu]": 10,
    "tests/browser/test_bets_piao_manual.py::test_tap_counts_for_the_common_hands_the_floats_and_a_manual_hand": 12,
    "tests/test_benchmarks.py::test_each_benchmark_runs_end_to_end_at_its_tiny_size[outage]": 13,
    "tests/test_benchmarks.py::test_each_benchmark_runs_end_to_end_at_its_tiny_size[taps]": 12,
    "tests/test_benchmarks.py::test_each_benchmark_runs_end_to_end_at_its_tiny_size[taps_yiwu]": 12,
    "tests/test_benchmarks.py::test_each_benchmark_runs_end_to_end_at_its_tiny_size[taps_analyse]": 10,
    "tests/browser/test_outbox_writes.py::test_a_bet_the_server_takes_but_never_answers_is_sent_again_and_placed_once": 11,
    "tests/browser/test_outbox.py::test_a_send_with_no_answer_in_time_is_sent_again_and_recorded_once": 10,
    "tests/browser/test_offline_people.py::test_the_same_hand_kept_on_three_phones_is_recorded_once_and_each_answer_applies_once": 11,
    "tests/browser/test_accessibility.py::test_no_page_has_a_critical_or_serious_accessibility_violation": 10,
    "tests/host/test_https.py::test_the_app_behind_caddy_s_https_installs_works_offline_and_counts_the_real_client": 10,
    "tests/core/test_it_make_run.py::test_make_run_is_gunicorn_with_debug_off_its_secret_and_sessions_kept_and_backed_up": 12,
    "tests/browser/test_check_up_to.py::test_five_phones_check_17_hands_with_one_tap_each_flag_one_and_take_one_back": 9,
    "tests/browser/test_one_preview.py::test_the_sheet_fetched_ahead_paints_at_the_tap_with_no_request": 8,
    "tests/browser/test_checks.py::test_two_phones_check_a_hand_flag_it_fix_it_and_check_it_again": 8,
    "tests/browser/test_big_text.py::test_a_poll_never_moves_what_a_finger_is_on_or_what_holds_the_focus": 8,
    "tests/browser/test_analyse_flow.py::test_read_a_hand_and_record_it_then_again_for_the_first_player_east": 8,
}
GUESS = {"long": 5.0, 1: 3.0}  # an unnamed long test, an unnamed transactional (browser) test


def seconds(item) -> float:
    """How long ``item`` is expected to take: SECONDS, else its kind's GUESS (0 for the rest)."""
    nodeid = getattr(item, "nodeid", "")
    named = SECONDS.get(nodeid, SECONDS.get(nodeid.split("[", 1)[0]))
    if named is not None:
        return named
    return GUESS["long"] if long(item) else GUESS.get(kind(item), 0.0)


def deal(items: list, loads: list[float]) -> list[list]:
    """``items`` longest first, each to the worker with the fewest seconds in ``loads`` (which it
    adds to); each worker's share keeps that order, longest first."""
    shares = [[] for _ in loads]
    for item in sorted(items, key=seconds, reverse=True):  # sorted() is stable: ties keep their order
        worker = min(range(len(loads)), key=lambda w: loads[w])
        shares[worker].append(item)
        loads[worker] += seconds(item)
    return shares


def share_out(items: list, workers: int) -> list:
    """The collection laid out for ``--dist worksteal``, which hands each of ``workers`` an equal
    run of it: every run starts with its share of the long tests, then gets its share of the
    database tests, then of the transactional tests, then is filled up with tests that need no
    database. The long and the transactional tests are dealt longest first to the worker with the
    fewest seconds of them so far (SECONDS), each share longest first, so that no long test starts
    late and ends the run alone, and the runs' ends are small tests the others steal. Each worker
    still keeps pytest-django's order (database, transactional, none) for the tests that touch a
    database, and what a worker steals from another's tail needs no database. Left as it was when
    the counts do not allow it."""
    first, groups = [], {0: [], 1: [], 2: []}
    for item in items:
        (first if long(item) else groups[kind(item)]).append(item)
    db, plain = groups[0], groups[2]
    loads = [0.0] * workers
    longs = deal(first, loads)
    transactional = deal(groups[1], loads)
    runs = []
    for w, size in enumerate(run_sizes(len(items), workers)):
        own = longs[w] + db[w * len(db) // workers : (w + 1) * len(db) // workers] + transactional[w]
        if len(own) > size:
            return items
        runs += own + plain[: size - len(own)]
        plain = plain[size - len(own) :]
    return runs


def run_sizes(count: int, workers: int) -> list[int]:
    """The runs worksteal hands out at the start, in turn: each the tests left over the workers
    left, rounded down (xdist/scheduler/worksteal.py ``check_schedule``), so the later ones are
    the longer when ``count`` does not divide. A run laid out one test longer than it is handed
    loses its first test, a long one, to the end of the run before it."""
    sizes = []
    for w in range(workers):
        sizes.append((count - sum(sizes)) // (workers - w))
    return sizes


# The slowest Django-client and property tests (over 0.15 s of CPU each here, per parameter: the
# whole-page tours in English, the largest backup, the stats over many games, the step bundle's
# walk, the biggest property runs): `make test` and CI run them, `make test-quick` leaves them out
# (the `slow` marker) so that the loop stays within 30 s. Measured with `make test-quick ARGS=--durations=0`;
# docs/performance.md has the figures.
SLOW = {
    "tests/accounts/test_it_accounts.py::test_a_signed_in_person_who_opens_a_link_keeps_the_game_on_every_device",
    "tests/accounts/test_it_accounts.py::test_nobody_needs_an_account",
    "tests/analyse/test_it_analyse_page.py::test_use_link_leads_to_the_filled_preview_and_records_after_confirm",
    "tests/api/test_it_hostile_json.py::test_both_commands_exit_2_with_the_error_json_not_a_traceback",
    "tests/concurrency/test_concurrent_checks.py::test_four_people_on_two_phones_each_tapping_all_right_up_to_n_at_once_check_each_hand_once",
    "tests/concurrency/test_concurrent_checks.py::test_four_phones_each_tapping_twice_record_each_check_once",
    "tests/concurrency/test_concurrent_phones.py::test_a_double_tap_from_one_phone_is_one_hand",
    "tests/concurrency/test_concurrent_phones.py::test_eight_phones_submitting_the_same_next_hand_record_exactly_one",
    "tests/concurrency/test_concurrent_phones.py::test_eight_simultaneous_edits_from_one_version_apply_once",
    "tests/concurrency/test_concurrent_phones.py::test_no_hand_is_lost_when_every_phone_records_its_own",
    "tests/concurrency/test_concurrent_queued_writes.py::test_one_void_sent_from_every_tab_at_once_voids_once_and_all_answer_alike",
    "tests/concurrency/test_kept_answers.py::test_every_phone_answering_not_the_same_at_once_records_one_and_asks_the_rest_about_it",
    "tests/concurrency/test_kept_answers.py::test_every_phone_dropping_at_once_records_nothing",
    "tests/concurrency/test_kept_answers.py::test_one_kept_hand_answered_from_every_tab_at_once_is_recorded_once",
    "tests/concurrency/test_kept_answers.py::test_the_same_hand_kept_on_every_phone_and_sent_at_once_is_recorded_once_and_asked_on_the_others",
    "tests/core/test_it_budgets.py::test_budgets_are_settings_read_from_the_environment",
    "tests/core/test_it_cache.py::test_the_cache_equals_a_fresh_replay_after_any_writes",
    "tests/core/test_it_change_budgets.py::test_a_hundred_bets_in_a_minute_raise_the_version_only_as_often_as_the_budget_allows",
    "tests/core/test_it_client_address.py::test_a_trusted_proxy_count_below_one_names_the_variable",
    "tests/core/test_it_client_address.py::test_start_up_is_quiet_without_a_header",
    "tests/core/test_it_client_address.py::test_start_up_warns_about_a_header_name_no_request_can_carry",
    "tests/core/test_it_client_address.py::test_start_up_warns_that_a_client_can_choose_its_address_when_debug_serves_it_directly",
    "tests/core/test_it_client_address.py::test_wrong_tokens_with_varied_first_entries_are_counted_as_one_client",
    "tests/core/test_it_english_pages.py::test_edited_voided_and_settled_games_are_english",
    "tests/core/test_it_english_pages.py::test_every_entry_step_and_preview_is_english",
    "tests/core/test_it_english_pages.py::test_every_game_page_and_its_hands_are_english",
    "tests/core/test_it_english_pages.py::test_refusals_on_a_preview_are_english",
    "tests/core/test_it_english_pages.py::test_suanpai_is_english_in_every_ruleset",
    "tests/core/test_it_english_pages.py::test_the_examples_cover_every_kind_of_hand",
    "tests/core/test_it_forkserver.py::test_a_served_run_is_a_real_run_byte_for_byte",
    "tests/core/test_it_forkserver.py::test_a_settings_error_is_the_same_traceback_and_status_as_a_real_run",
    "tests/core/test_it_language.py::test_engine_messages_follow_the_language",
    "tests/core/test_it_logging.py::test_a_4xx_answer_is_not_logged",
    "tests/core/test_it_logging.py::test_a_500_under_production_settings_is_logged_with_its_traceback_to_stderr",
    "tests/core/test_it_logging.py::test_a_lost_announcement_under_production_settings_is_logged_to_stderr_without_the_links",
    "tests/core/test_it_logging.py::test_a_request_the_shared_cache_fails_is_a_500_logged_with_its_traceback_to_stderr",
    "tests/core/test_it_logging.py::test_warnings_of_the_app_libraries_and_django_reach_stderr_with_debug_off",
    "tests/core/test_it_many_people.py::test_group_netting_of_many_peoples_evenings_clears_everyone_and_says_it_may_not_be_the_fewest",
    "tests/core/test_it_no_500.py::test_a_hostile_backup_is_refused_or_makes_a_game_every_page_can_show",
    "tests/core/test_it_no_500.py::test_random_form_input_never_breaks_the_server",
    "tests/core/test_it_query_counts.py::test_editing_and_voiding_cost_a_bounded_number_of_queries",
    "tests/core/test_it_rate_limits.py::test_reading_the_import_page_is_not_counted",
    "tests/core/test_it_rate_limits.py::test_the_json_doors_and_import_share_one_anonymous_budget_per_client",
    "tests/core/test_it_readiness.py::test_under_production_settings_a_balancer_asks_over_plain_http_and_gets_the_answer",
    "tests/core/test_it_security.py::test_check_deploy_is_clean_with_production_settings",
    "tests/core/test_it_settings.py::test_postgresql_and_redis_that_do_not_answer_fail_a_request_in_seconds",
    "tests/core/test_it_settings.py::test_the_budgets_counts_are_never_in_the_cache_of_pages",
    "tests/core/test_it_settings.py::test_the_people_limits_default_to_the_contracts_and_are_read_from_the_environment",
    "tests/core/test_it_shared_cache.py::test_the_quiet_polls_address_is_the_one_the_url_resolver_sends_to_the_poll",
    "tests/core/test_it_whole_pages.py::test_every_tap_and_every_back_of_the_walk_lands_on_a_whole_page_in_english",
    "tests/core/test_it_whole_pages.py::test_the_update_preview_button_gets_the_whole_page_and_its_address",
    "tests/core/test_po_wrapped_lines.py::test_no_translation_starts_with_another_glued_to_it",
    "tests/core/test_write_path.py::test_only_the_write_path_writes_a_games_or_a_groups_rows",
    "tests/engine/test_analyse_properties.py::test_brute_force_over_wild_assignments_agrees",
    "tests/engine/test_english_texts.py::test_no_english_text_in_the_code_holds_chinese",
    "tests/engine/test_english_texts.py::test_the_source_has_bilingual_texts_to_check",
    "tests/engine/test_hygiene.py::test_every_character_a_name_may_not_hold_is_unprintable_so_a_printable_name_is_passed_at_once",
    "tests/groups/test_it_groups.py::test_a_settle_up_is_undone_until_something_of_it_is_paid",
    "tests/groups/test_it_groups.py::test_every_group_page_answers_in_english_with_no_chinese_left",
    "tests/groups/test_it_groups.py::test_settling_tonight_with_last_weeks_unpaid_transfers_nets_them_into_the_fewest",
    "tests/groups/test_it_groups.py::test_standings_are_the_sums_of_the_settled_games_money_per_person",
    "tests/groups/test_it_groups.py::test_the_group_evening_on_a_phone_says_each_of_its_messages",
    "tests/groups/test_it_seasons.py::test_a_season_answers_in_english_with_no_chinese_left",
    "tests/groups/test_it_seasons.py::test_a_season_is_changed_closed_today_and_deleted_with_its_games_kept",
    "tests/groups/test_it_seasons.py::test_a_seasons_pages_cost_the_same_queries_however_many_games",
    "tests/groups/test_it_seasons.py::test_a_seasons_standings_are_the_engines_sums_across_evenings_and_simultaneous_tables",
    "tests/groups/test_it_seasons.py::test_whatever_a_phone_sends_to_a_season_is_a_page_or_a_message",
    "tests/nights/test_it_mixed_nights.py::test_a_mixed_night_settles_exactly_into_the_fewest",
    "tests/nights/test_it_mixed_nights.py::test_a_yiwu_table_and_a_hangzhou_table_settle_into_the_fewest_exact_transfers",
    "tests/nights/test_it_mixed_nights.py::test_each_table_opens_under_its_own_ruleset_and_that_rulesets_last_house_rules",
    "tests/nights/test_it_night_doors.py::test_the_nights_list_folds_the_earlier_ones_and_stops_at_its_bound",
    "tests/nights/test_it_nights.py::test_every_night_page_answers_in_english_with_no_chinese_left",
    "tests/nights/test_it_nights.py::test_settle_every_table_and_net_the_night",
    "tests/nights/test_it_nights.py::test_the_board_on_a_view_link_and_its_poll",
    "tests/nights/test_it_nights.py::test_the_nights_settle_up_is_exact_and_minimal",
    "tests/pwa/test_it_big_text.py::test_every_page_has_the_switch_and_it_sets_and_clears_the_mode",
    "tests/pwa/test_it_big_text.py::test_the_mode_is_kept_by_this_phone_a_year_and_by_no_other",
    "tests/pwa/test_it_holds_kept_hands.py::test_a_hand_kept_from_a_link_is_held_when_the_deal_passed_and_when_the_bets_changed",
    "tests/pwa/test_it_installable.py::test_make_run_serves_static_files_as_production_does",
    "tests/records/test_it_full_backup.py::test_a_backup_restores_a_game_that_looks_the_same",
    "tests/records/test_it_full_backup.py::test_a_restored_settled_game_keeps_its_paid_marks_and_reopens_like_the_original",
    "tests/records/test_it_history_stats.py::test_history_pages_twenty_games_at_a_time_newest_first",
    "tests/records/test_it_largest_backup.py::test_its_import_keeps_every_hand_and_every_voided_record",
    "tests/records/test_it_largest_backup.py::test_its_import_keeps_every_total_and_the_settlement_with_its_paid_marks",
    "tests/records/test_it_largest_backup.py::test_the_largest_backup_is_under_the_import_limit",
    "tests/records/test_it_stored_stats.py::test_history_and_stats_cost_the_same_queries_for_one_game_or_many_and_read_no_hand",
    "tests/records/test_it_stored_stats.py::test_history_shows_the_replayed_totals_and_hand_counts",
    "tests/records/test_it_stored_stats.py::test_stored_stats_equal_the_replay_after_record_edit_void_undo_and_import",
    "tests/rulesets/hangzhou/test_hangzhou_properties.py::test_nets_sum_to_zero_and_totals_are_their_sum",
    "tests/rulesets/test_every_ruleset.py::test_no_app_code_names_a_ruleset_outside_its_own_folder",
    "tests/rulesets/toy/test_toy_is_whole.py::test_with_the_toy_registered_the_installed_come_first_and_no_app_code_names_it",
    "tests/rulesets/toy/test_toy_walk.py::test_a_toy_game_walks_every_page",
    "tests/rulesets/wuyi2/test_it_wuyi2_evening.py::test_a_wuyi2_evening_sheet_by_sheet",
    "tests/rulesets/wuyi2/test_wuyi2_properties.py::test_a_mangled_hand_returns_the_contract_error_at_its_index",
    "tests/rulesets/wuyi2/test_wuyi2_properties.py::test_every_win_pays_base_times_two_to_the_fan_times_the_doublings",
    "tests/rulesets/wuyi2/test_wuyi2_properties.py::test_nets_sum_to_zero_and_totals_are_the_sum_of_nets",
    "tests/rulesets/wuyi2/test_wuyi2_properties.py::test_scoring_a_prefix_gives_the_same_first_hands",
    "tests/rulesets/wuyi2/test_wuyi2_rules.py::test_conflicts_says_refused_iff_scoring_refuses_for_every_code_added_to_a_valid_set",
    "tests/rulesets/yiwu/test_yiwu_properties.py::test_invalid_entries_give_the_contract_error_and_nothing_else",
    "tests/rulesets/zhuji/test_it_zhuji_evening.py::test_a_zhuji_evening_sheet_by_sheet",
    "tests/rulesets/zhuji/test_zhuji_properties.py::test_a_prefix_replays_the_same_first_hands",
    "tests/rulesets/zhuji/test_zhuji_properties.py::test_mangled_input_gives_the_contract_error_and_never_another_exception",
    "tests/rulesets/zhuji/test_zhuji_properties.py::test_random_valid_games_nets_sum_to_zero_and_totals_are_the_sum_of_nets",
    "tests/settle/test_it_charts.py::test_the_settle_page_charts_every_counted_hand_not_only_the_latest",
    "tests/settle/test_it_paycodes.py::test_a_groups_code_serves_every_evening_and_a_games_own_comes_first",
    "tests/table/test_it_check_up_to.py::test_a_flag_is_a_banner_on_every_phone_until_the_hand_is_fixed",
    "tests/table/test_it_check_up_to.py::test_four_people_checking_17_hands_at_pace_never_meet_a_budget_nor_spend_the_changes",
    "tests/table/test_it_check_up_to.py::test_one_tap_checks_exactly_my_unchecked_hands_up_to_the_latest_i_played",
    "tests/table/test_it_game_page.py::test_the_whole_list_comes_in_pages_of_100_and_a_poll_keeps_the_page",
    "tests/table/test_it_record_hand.py::test_a_game_of_2000_hands_takes_no_more_and_says_why",
    "tests/table/test_it_round_question.py::test_the_end_of_the_agreed_length_stays_asked_until_answered",
    "tests/table/test_it_seating.py::test_a_backup_holding_a_seating_imports_and_every_page_answers",
    "tests/table/test_it_seating.py::test_a_backup_with_a_voided_seating_and_a_hand_after_it_restores",
    "tests/table/test_it_seating_evening.py::test_the_seating_evening_says_every_amount_and_message_the_phone_showed",
    "tests/table/test_it_seating_page.py::test_i_am_follows_my_person_through_a_swap_and_signs_by_name_when_i_sit_out",
    "tests/table/test_it_seating_page.py::test_rounds_count_the_deal_passing_and_a_set_length_offers_seats_or_settling",
    "tests/table/test_it_seating_page.py::test_someone_sitting_out_can_say_i_am_on_a_fresh_phone",
    "tests/table/test_it_table_flow.py::test_the_evening_on_a_phone_says_every_amount_and_message_it_showed",
    "tests/table/test_it_together_bets.py::test_a_ruleset_without_bets_walks_the_same_taps",
    "tests/table/test_it_together_bets.py::test_the_later_hands_bet_is_shown_invalid_and_the_edit_waits_for_its_untick",
    "tests/table/test_it_win_or_draw_pages.py::test_the_sheet_sits_in_the_form_above_the_dealer_correction",
    "tests/table/test_steps.py::test_each_link_past_the_questions_is_named_with_its_previews_title_or_none",
    "tests/table/test_steps.py::test_the_bundle_holds_exactly_the_questions_reachable_each_as_its_page_shows_it",
    "tests/table/test_steps.py::test_with_a_buy_in_placed_on_the_game_page_each_question_carries_it_as_its_page_does",
    "tests/test_architecture.py::test_each_of_the_double_words_names_one_thing",
    "tests/test_architecture.py::test_no_import_circles",
    "tests/test_architecture.py::test_the_core_imports_no_feature_app",
    "tests/test_architecture.py::test_the_graph_reads_every_kind_of_import",
    "tests/test_comment_paths.py::test_every_path_a_comment_cites_exists",
    "tests/test_stands_alone.py::test_every_document_the_code_cites_is_in_the_repository",
    "tests/test_stands_alone.py::test_no_file_names_the_spec_folder_or_its_files",
}


def slow(item) -> bool:
    """Whether ``item`` (any of its parameters) is one of SLOW."""
    return item.nodeid.split("[", 1)[0] in SLOW
