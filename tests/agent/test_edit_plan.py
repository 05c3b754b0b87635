import json

from labwright.agent.edit_plan import MAX_ITEMS, parse_edit_plan


def test_plain_plan_parses() -> None:
    items = parse_edit_plan('{"changes":[{"section":"n2","issue":"thin","action":"add the fit"}]}')
    assert [(i.section, i.issue, i.action, i.is_whole) for i in items] == [
        ("n2", "thin", "add the fit", False)
    ]


def test_fenced_and_chatty_plans_parse() -> None:
    text = (
        'Here is my plan:\n```json\n{"changes":[{"section":"whole","issue":"i","action":"a"}]}\n```'
    )
    items = parse_edit_plan(text)
    assert len(items) == 1 and items[0].is_whole


def test_empty_list_means_done_and_garbage_means_no_changes() -> None:
    assert parse_edit_plan('{"changes": []}') == []
    assert parse_edit_plan("I think it is fine.") == []
    assert parse_edit_plan(None) == []
    assert parse_edit_plan('{"changes": "all of them"}') == []


def test_at_most_eight_items() -> None:
    plan = {"changes": [{"section": f"n{i}", "issue": "x", "action": "y"} for i in range(20)]}
    assert len(parse_edit_plan(json.dumps(plan))) == MAX_ITEMS


def test_abstract_and_keywords_go_whole() -> None:
    items = parse_edit_plan('{"changes":[{"section":"abstract","issue":"i","action":"a"}]}')
    assert items[0].is_whole
