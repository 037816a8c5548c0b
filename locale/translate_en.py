"""Fill locale/en/LC_MESSAGES/django.po from the table below, then compile it.

Run after `manage.py makemessages -l en`:  .venv/bin/python locale/translate_en.py
The compiled .mo is committed, so running the app needs no gettext tools.
"""

import re
import subprocess
from pathlib import Path

PO = Path(__file__).parent / "en" / "LC_MESSAGES" / "django.po"

EN = {
    "东": "E",
    "南": "S",
    "西": "W",
    "北": "N",
    "首局庄家": "First dealer",
    "底分（庄/闲）": "Bases (dealer/other)",
    "四个玩家的名字不能重复。": "The four names must differ.",
    "结果": "Outcome",
    "胡牌": "Win",
    "流局": "Draw",
    "逃跑": "Abandon",
    "谁胡了": "Winner",
    "胡牌型": "Win type",
    "谁放铳": "Discarder",
    "谁逃跑": "Leaver",
    "买子": "买子 (buy-in)",
    "谁飘了": "Who floated (飘)",
    "飘": "Float",
    "单飘": "Single float",
    "双飘": "Double float",
    "喂家一": "Feeder 1",
    "喂家二": "Feeder 2",
    "喂家三": "Feeder 3",
    "胡牌者手里几个财神": "财神 (wilds) the winner held",
    "不填": "not given",
    "更正庄家": "Correct the dealer",
    "更正连庄数": "Correct the streak",
    "作废原因": "Reason",
    "记错了": "entered by mistake",
    "没有这个牌局": "No such game",
    "没有这个座位": "No such seat",
    "只读链接不能记分或修改。": "A view-only link cannot record or change hands.",
    "已记录第%(seq)s局。": "Hand %(seq)s recorded.",
    "没有这一局": "No such hand",
    "已修改第%(seq)s局，之后的每一局都已重算。": "Hand %(seq)s changed; every later hand was re-scored.",
    "作废": "Void",
    "第%(seq)s局已作废，之后的每一局都已重算。": "Hand %(seq)s voided; every later hand was re-scored.",
    "还没有可以撤销的局。": "There is no hand to undo yet.",
    "撤销上一局": "Undo last hand",
    "义乌麻将记分": "Yiwu Mahjong Scores",
    "第%(seq)s局": "Hand %(seq)s",
    "庄": "Dealer",
    "连%(n)s": "streak %(n)s",
    "无人付分": "Nobody pays",
    "记于": "recorded",
    "改于": "edited",
    "修改": "Edit",
    "规则": "Rules",
    "只读链接：可以看，不能记分。": "View-only link: you can watch, not record.",
    "买": "买",
    "下": "下",
    "记一局：谁胡了？": "Record a hand: who won?",
    "共 %(n)s 局": ("%(n)s hand", "%(n)s hands"),
    "还没有记录。": "No hands yet.",
    "我是（记录时署名）：": "I am (signs what I record):",
    "修改第%(seq)s局": "Edit hand %(seq)s",
    "记第%(seq)s局": "Record hand %(seq)s",
    "取消": "Cancel",
    "谁胡了？": "Who won?",
    "%(name)s 胡了 — 怎么胡？": "%(name)s won — how?",
    "谁放铳？": "Who discarded?",
    "放铳": "discarded",
    "%(name)s 飘了：": "%(name)s floated:",
    "改胡牌者": "change the winner",
    "改胡牌型": "change the win type",
    "谁逃跑了？": "Who left?",
    "总分": "Totals",
    "现在": "Now",
    "之后": "After",
    "确认修改": "Confirm the change",
    "确认记录": "Confirm",
    "更多：买子 · 下子 · 飘/承包 · 财神 · 更正庄家": "More: 买子 · 下子 · float/feeders · 财神 · correct the dealer",
    "已买": "bought",
    "下子（对庄家）": "下子 (bet against the dealer)",
    "这局可下 %(n)s": "%(n)s may be placed now",
    "不下": "no bet",
    "喂家：飘的人打出财神后，从他那里吃/碰/明杠两次以上的人（先喂的在前）。": "Feeders: players the floater claimed two or more discards from after throwing a 财神 (first feeder first).",
    "更新预览": "Update preview",
    "开新牌局": "New game",
    "这台手机打开过的牌局": "Games opened on this phone",
    "已结束": "finished",
    "进行中": "playing",
    "%(n)s 局": ("%(n)s hand", "%(n)s hands"),
    "只读": "view only",
    "还没有。开一个新牌局，或打开朋友发来的链接。": "None yet. Start a new game, or open a link a friend sent.",
    "约定（房规）": "House rules",
    "开始": "Start",
    "本局规则": "This game's rules",
    "返回记分": "Back to the scores",
    "开局": "started",
    "约定": "House rules",
    "胡牌型与倍数（不叠加）": "Win types and multipliers (never stacked)",
    "牌型": "Type",
    "倍数": "×",
    "放铳可胡": "On a discard",
    "是": "yes",
    "否": "no",
    "算分": "Scoring",
    "每笔输赢的底分：有庄家参与 %(d)s，两个闲家之间 %(o)s；每个买子的人 +%(m)s；庄闲之间再加下子。": "Each payment's base: %(d)s when the dealer is in it, %(o)s between two non-dealers; +%(m)s per player holding 买子; 下子 adds between the dealer and a bettor.",
    "三家都付：每家付 底分 × 倍数；放铳的人底分多 +1。": "All three losers pay base × multiplier; the discarder's base gets +1.",
    "三家都付：每家付 底分 × 倍数；放铳的人多付一倍。": "All three losers pay base × multiplier; the discarder pays double.",
    "庄家胡或流局，庄家连庄；闲家胡，下家做庄（不是胡的人做庄）。连庄一直按基数算。": "A dealer win or a draw keeps the dealer; a non-dealer win passes the deal to the next seat (not to the winner). The streak never raises the base.",
    "庄家胡牌后，闲家可下子（数额＝庄家这把的倍数），再次连庄下子翻番；换庄后下子、买子都清零。": "After a dealer win each non-dealer may bet 下子 (the multiplier of that win); it doubles with each further dealer win; a new dealer clears 下子 and 买子.",
    "飘成且有喂家：喂家承包全部；喂家胡了，飘的人反赔 %(f)s 倍。双飘流局，飘的人赔每家 底分 × %(m)s。": "A float wins with feeders: the feeders pay it all; a feeder wins instead: the floater pays them %(f)s× the total. A failed 双飘 in a draw pays each player base × %(m)s.",
    "打牌时的提醒": "Reminders while playing",
    "有人打出财神，其他人不能胡这张财神。": "Nobody may win on a discarded 财神.",
    "抢杠只能抢别人碰后再补的杠（补杠）；抢杠算自摸，三家都付。": "Robbing a kong only on an added kong (补杠); it counts as self-drawn: all three pay.",
    "同一圈里过了的牌不能再胡、再碰，直到自己动牌。": "A tile passed on cannot be won or punged again in the same go-round until you draw.",
    "手里有两个财神一定要自摸；三个财神只能财神头（敲响）或杠开，不能抢杠胡。": "With 2 财神 you must self-draw; with 3 only 财神头 or 杠开, never by robbing a kong.",
    "单飘后其他人必须自摸才能胡；双飘后其他人只能杠开或财神头。": "After a 单飘 the others must self-draw; after a 双飘 only 杠开 or 财神头.",
    "单飘后其他人必须自摸才能胡；双飘后其他人只能杠开。": "After a 单飘 the others must self-draw; after a 双飘 only 杠开.",
    "流局：剩 17 墩结束；单飘后剩 7 墩，双飘后剩 3 墩。": "A hand is drawn at 17 stacks left; 7 after a 单飘, 3 after a 双飘.",
    "作废第%(seq)s局？": "Void hand %(seq)s?",
    "作废后对不上：%(blocked)s。请先修改或作废那一局。": "Voiding it would break %(blocked)s. Edit or void that hand first.",
    "返回": "Back",
    "作废后": "After voiding",
    "确认作废": "Confirm void",
    "1 点 = 1 元": "1 point = ¥1",
    "1 点 = 0.5 元": "1 point = ¥0.5",
    "1 点 = 0.1 元": "1 point = ¥0.1",
    "自定": "Custom",
    "每点多少钱": "Money per point",
    "自定：1 点 = ? 元": "Custom: 1 point = ¥?",
    "台费（元）": "Table fee (¥)",
    "台费谁出": "Who pays the table fee",
    "四人平摊": "All four equally",
    "赢家按赢的比例出": "Winners, in proportion",
    "谁去付台费": "Who pays the venue",
    "请填每点多少元。": "Enter the money per point.",
    "牌局已结束；要修改请先在结算页重新打开。": "The game is finished: reopen it on the settle page to change it.",
    "文件太大。": "The file is too large.",
    "不是有效的 JSON 文件。": "Not a valid JSON file.",
    "已导入牌局。": "Game imported.",
    "每人总分走势": "Running totals",
    "牌局已重新打开，可以继续记分。": "The game is open again: keep recording.",
    "退出": "Sign out",
    "登录": "Sign in",
    "登录后，打开过的牌局在每台设备上都能看到。不登录也能用。": "Signed in, the games you open follow you to every device. Everything works without signing in too.",
    "还没有账号？注册": "No account? Sign up",
    "注册": "Sign up",
    "玩家": "Player",
    "金额（元）": "Money (¥)",
    "邀请": "Invite",
    "已结束 · 看结算": "Finished · see the settlement",
    "结算": "Settle",
    "战绩 · 分享 · 打印": "Summary · share · print",
    "备份 JSON": "Backup JSON",
    "走势图": "Chart",
    "历史牌局": "History",
    "个人统计": "Player stats",
    "这台手机还没有打开过牌局。": "This phone has not opened any game yet.",
    "恢复备份": "Restore a backup",
    "选一个从「备份 JSON」下载的文件，或把内容贴进来。会变成一个新牌局，原来的不受影响。": "Pick a file downloaded with “Backup JSON”, or paste its text. It becomes a new game; the original is untouched.",
    "导入": "Import",
    "金额按分计算：每点的钱是整数分，所以不用四舍五入；台费分不匀时，多出的一分按比例余数最大的人出（一样大时按座位顺序）。转账笔数是能结清的最少笔数。": "Money is counted in whole fen: the rate per point is whole fen, so nothing is rounded; when the table fee does not split evenly, the extra fen go to the largest remainders (ties to the earlier seat). The transfers are the fewest that clear every balance.",
    "已结束 · 每点 %(r)s 分 · 台费 %(f)s 分": "Finished · %(r)s fen per point · table fee %(f)s fen",
    "转账": "Transfers",
    "已付": "Paid",
    "标为已付": "Mark paid",
    "没有人需要转账。": "Nobody needs to pay.",
    "重新打开这局（结算会作废）": "Reopen this game (the settlement is dropped)",
    "重新打开": "Reopen",
    "预览": "Preview",
    "结束并结算": "Finish and settle",
    "选好每点多少钱和台费，点预览看谁给谁转多少。": "Choose the money per point and the table fee, then Preview to see who pays whom.",
    "记分链接：拿到的人可以记分、修改": "Edit link: whoever has it can record and change hands",
    "只读链接：拿到的人只能看": "View link: whoever has it can only watch",
    "不用注册：用手机扫码或打开链接就能加入。链接就是钥匙，只发给同桌的人。": "No sign-up: scan the code or open the link to join. The link is the key: send it only to the table.",
    "按名字统计这台手机（或你的账号）的 %(n)s 场牌局。": (
        "By name, over %(n)s game on this phone (or your account).",
        "By name, over %(n)s games on this phone (or your account).",
    ),
    "场": "Games",
    "胡": "Wins",
    "自摸率": "Self-drawn",
    "最大一局": "Best hand",
    "最好": "Best",
    "最差": "Worst",
    "总输赢": "Net",
    "还没有数据。": "No data yet.",
    "战绩": "Summary",
    "发到微信群": "For the WeChat group",
    "已复制": "Copied",
    "复制": "Copy",
    "要打印，用浏览器的打印：这页会去掉按钮。": "To print, use the browser's print: this page drops its buttons.",
    "每一局": "Every hand",
    "名字不能包含控制字符或文字方向字符（%(code)s）。": "Names may not contain control or text-direction characters (%(code)s).",
    "不能包含控制字符或文字方向字符（%(code)s）。": "May not contain control or text-direction characters (%(code)s).",
    "密码太短，至少要 %(min_length)d 个字符。": "This password is too short: it needs at least %(min_length)d characters.",
    "密码至少要 %(min_length)d 个字符。": "Your password needs at least %(min_length)d characters.",
    "每点最多 10000 元。": "At most 10,000 yuan per point.",
    "每点至少 0.01 元。": "At least 0.01 yuan per point.",
    "台费最多 100000 元。": "The table fee is at most 100,000 yuan.",
    "台费不能是负数。": "The table fee cannot be negative.",
    "表单已损坏，请重新打开记分页。": "The form was damaged: open the entry page again.",
    "第%(seq)s局已被作废。": "Hand %(seq)s has been voided.",
    "不是有效的 JSON 文件（嵌套太深）。": "Not a valid JSON file (nested too deeply).",
    "出错了": "Error",
    "回首页": "Home",
}


def unquote(lines: list[str]) -> str:
    return (
        "".join(re.findall(r'"(.*)"', "\n".join(lines)))
        .encode()
        .decode("unicode_escape")
        .encode("latin-1")
        .decode("utf-8")
    )


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fill(po_text: str) -> tuple[str, list[str]]:
    out, missing = [], []
    for block in po_text.split("\n\n"):
        lines = block.split("\n")
        ids = [i for i, line in enumerate(lines) if line.startswith("msgid ")]
        if not ids:
            out.append(block)
            continue
        start = ids[0]
        end = next(i for i, line in enumerate(lines) if line.startswith(("msgid_plural", "msgstr")))
        msgid = unquote(lines[start:end])
        if not msgid:
            out.append(block)
            continue
        head = [line for line in lines[:start] if not line.startswith("#, fuzzy")]
        body = lines[start : next(i for i, line in enumerate(lines) if line.startswith("msgstr"))]
        english = EN.get(msgid)
        if english is None:
            missing.append(msgid)
            out.append(block)
            continue
        if isinstance(english, tuple):
            tail = [f"msgstr[0] {quote(english[0])}", f"msgstr[1] {quote(english[1])}"]
        else:
            tail = [f"msgstr {quote(english)}"]
        out.append("\n".join(head + body + tail))
    return "\n\n".join(out), missing


if __name__ == "__main__":
    text, missing = fill(PO.read_text(encoding="utf-8"))
    PO.write_text(text, encoding="utf-8")
    for msgid in missing:
        print("untranslated:", msgid)
    subprocess.run(["msgfmt", "--check", "-o", str(PO.with_suffix(".mo")), str(PO)], check=True)
