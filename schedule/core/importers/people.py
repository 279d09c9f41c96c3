"""Who teaches a course, as a student writes it: the names alone, several joined with 、.

Exports write academic titles before or after a name ("Dr. Alice Moore", "Prof. 赵晨", "钟晓 教授",
"孙悦（讲师）", "周强讲师") and list several teachers with commas, slashes or 、 ("张敏,李强", "龚成/邢岚").
A title says nothing about who the teacher is, and a student never types it, so it is dropped.
"""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"\s*[,，、/;；&]\s*|\s+and\s+")
# Chinese names listed with spaces ("李华 陈思远"): each word one person.
_SPACED_HAN_NAMES = re.compile(r"^[\u4e00-\u9fff·]{2,4}(?:\s+[\u4e00-\u9fff·]{2,4})+$")
# A title before the name needs a dot or a space after it, so "Drew" stays a name.
# Titles stack ("Prof. Dr. Klaus Weber", "Prof. Dr.-Ing. Lena Vogt").
_TITLE_BEFORE = re.compile(r"^(?:(?:dr(?:\.-ing)?|prof|professor|assoc\.?\s*prof|mr|mrs|ms|ir|drs|ing)(?:\.\s*|\s+))+",
                           re.I)  # Dutch and German staff lists stack them: "dr. ir. R. Jansen"
_ASSOCIATE = re.compile(r"\bA/Prof\b", re.I)  # Singapore's associate professor: "A/Prof Ng Boon Hock"
# A degree after the name ("T. Smit MSc", "Ann Lee, PhD").
_DEGREE_AFTER = re.compile(r",?\s+(?:MSc|MA|MBA|BSc|BA|PhD|Ph\.D|MEng|MPhil|LLM)\.?$")
TITLE_WORDS = (r"助理教授|客座教授|兼任教授|特聘教授|副教授|准教授|教授|讲师|講師|助教|副研究员|研究员|研究員|高级工程师"
                r"|工程师|工程師"
                r"|外籍教师|外籍专家|外聘教师|实验师|实验员|馆员|辅导员|主任医师|主治医师|医师|技师|博士|教官|教员|老师|老師|外教|先生|professor|lecturer")
_TITLE_WORD = re.compile(TITLE_WORDS, re.I)
_TEACHING_ASSISTANT = re.compile(r"\s+[(（]?TA[)）]?$")  # "中村彩 TA": a teaching assistant is a teacher too
# A title after the name: bare ("钟晓 教授", "周强讲师") or in brackets ("孙悦（讲师）", "教师C()", "X(无)").
_TITLE_AFTER = re.compile(rf"\s*(?:(?:{TITLE_WORDS})|[(（]\s*(?:(?:{TITLE_WORDS})|无)?\s*[)）])$", re.I)
_TRIM = " \t\"'“”‘’。.,，;；、:：*"  # "王明*": a 教务 system's mark of the lead teacher
# A person's name: a few Han characters (with · for transliterations), or two to four capitalised Latin
# words -- one word ("Lecture", "B") is a name only after a title ("Dr Smith").
_HAN_NAME = re.compile(r"^[\u4e00-\u9fff·]{2,5}$")
_LATIN_NAME = re.compile(r"^[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){1,3}$")
_LATIN_WORD = re.compile(r"^[A-Z][\w'.-]*$")
# A Hong Kong / Singapore style name, family name first in capitals and a comma ("WONG, Ka Ho"): one person.
_FAMILY_FIRST = re.compile(r"\b([A-Z]{2,}),\s+(?=[A-Z][a-z])")
# The commonest family names, for telling "数据结构(李四)" (a teacher) from "C语言(实验)" (part of the name).
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔"
    "钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛"
    "邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝"
    "路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂"
    "全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
    "阎冀郁晋闻芮储靳封蔺逯郜邰宓郗隗胥阚晁鞠訾揭亓仝扈燕蒯竺茹庾暨廉邸栗荀湛钮"
)


# Compound Chinese family names, and the commonest Japanese ones (a language university's teachers), in
# simplified and Japanese forms.
TWO_CHARACTER_SURNAMES = frozenset(
    "欧阳 司马 上官 诸葛 东方 皇甫 尉迟 公孙 慕容 长孙 夏侯 令狐 宇文 司徒 端木 "
    "佐藤 铃木 鈴木 高桥 高橋 田中 伊藤 渡边 渡辺 渡邊 山本 中村 小林 加藤 吉田 山田 佐佐 佐々 山口 松本 井上 木村 林田 "
    "清水 山崎 森田 池田 桥本 橋本 阿部 石川 山下 中岛 中島 石井 小川 前田 冈田 岡田 长谷 長谷 藤田 后藤 後藤 近藤 村上 "
    "远藤 遠藤 青木 坂本 齐藤 斉藤 斎藤 福田 太田 西村 藤井 冈本 岡本 松田 中川 中野 原田 小野 田村 竹内 金子 和田 "
    "中山 石田 上田 森本 酒井 工藤 横山 宫崎 宮崎 宫本 宮本 内田 高木 安藤 岛田 島田 谷口 大野 高田 丸山 今井 河野 "
    "藤原 小岛 小島 武田 村田 上野 杉山 增田 増田 平野 大冢 大塚 千叶 千葉 久保 松井 小山 岩崎 樱井 桜井 野口 松尾 "
    "菊地 野村 新井 渡部".split()
)


def teacher_names(text: str) -> str:
    """The teachers of ``text`` without titles, each once, joined with 、 ("" when there are none)."""
    names: list[str] = []
    for part in _people_parts(text or ""):
        name = without_title(part)
        if name and name not in names:
            names.append(name)
    people = [name for name in names if not _TITLE_WORD.fullmatch(name)]  # "杨帆/副教授": the title is no one
    return "、".join(people or names)


def _people_parts(text: str) -> list[str]:
    parts: list[str] = []
    text = _ASSOCIATE.sub("Assoc Prof", _FAMILY_FIRST.sub(r"\1 ", text))  # its slash parts no names
    for part in _SEPARATORS.split(text):
        bare = part.replace("*", "").strip()
        words = bare.split()
        spaced = _SPACED_HAN_NAMES.match(bare) and not any(_TITLE_WORD.fullmatch(word) for word in words)
        parts += words if spaced else [part]
    return parts


def without_title(text: str) -> str:
    """One teacher's name without the academic title written before or after it."""
    name = " ".join(text.split()).strip(_TRIM)
    name = _DEGREE_AFTER.sub("", _TITLE_BEFORE.sub("", name))
    name = _TEACHING_ASSISTANT.sub("", name)
    stripped = _TITLE_AFTER.sub("", name).strip(_TRIM)
    # A bare "教授" is all the file says, and "王老师" is how students name a teacher: keep them whole.
    return stripped if len(stripped) > 1 else name


def looks_like_people(text: str) -> bool:
    """Whether ``text`` reads as one or more names of people (titles allowed), not as a room or a course."""
    return all(_is_person(part) for part in _people_parts(text.strip()))


def looks_like_han_name(text: str) -> bool:
    """Whether ``text`` is one name in Han characters (a common Chinese, compound or Japanese family
    name first), not a word of a course name."""
    name = without_title(text)
    if not _HAN_NAME.match(name):
        return False
    return name[0] in _SURNAMES or (len(name) >= 3 and name[:2] in TWO_CHARACTER_SURNAMES)


def _is_person(written: str) -> bool:
    name = without_title(written)
    titled = name != " ".join(written.split()).strip(_TRIM)
    return bool(_HAN_NAME.match(name) or _LATIN_NAME.match(name) or (titled and _LATIN_WORD.match(name)))
