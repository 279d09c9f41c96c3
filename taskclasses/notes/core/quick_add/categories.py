"""What kind of task a title names: the vocabularies behind the quadrant (see QUICK_ADD.md §3).

The product's convention decides importance by *category*, not by phrase: coursework, exams,
submissions, career, admin paperwork, money owed, medical care and meetings with teachers or
advisors are important; everything else is not, and splits into chores (simple: buy, tidy,
laundry, a parcel, a call) and complex work (learning, a book, a personal project).

the vocabularies were rewritten from these categories, as the nouns and verbs
a student uses for each, in both languages, instead of growing phrase by phrase from the fixture
(keyword rules tuned to one set reached 99 % on it and ~83 % on fresh text). Each category is one
entry of `IMPORTANT_CATEGORIES`, so a word's reason is visible and a missing word has an obvious home.

Chinese has no word boundaries, so short words carry look-arounds against the common words that
contain them (交 in 交流/交通/社交, 考 in 考虑/参考, 课 is deliberately absent: attending a class is
routine, 上课 is not a task to rank).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _words(chinese: str, english: str) -> re.Pattern[str]:
    """Chinese alternatives as substrings, English ones as whole words, case-insensitive.

    An English word may touch a Chinese character ("统计学quiz", "英美文学pre"): the edges are
    "no Latin letter or digit", not \\b, for which a Chinese character is a word character; a
    number may follow ("hw3", "pset2").
    """
    return re.compile(rf"{chinese}|(?<![A-Za-z0-9])(?:{english})(?![A-Za-z])", re.IGNORECASE)


# Course names students write on their own ("周一早八 马原", "reorganize my notes for anatomy").
_ZH_SUBJECTS = (
    r"高数|高等数学|线代|线性代数|概率论|概统|微积分|数分|数学分析|离散数学|马原|毛概|思修|政治|近代史|史纲|形策|形势与政策"
    r"|大物|大学物理|大英|大学英语|有机化学|无机化学|物化|分析化学|计量|宏观|微观|会计学|财务管理|金融学|经济学|管理学"
    r"|统计学|法理|民法|刑法|宪法|经济法|国际法|心理学|社会学|哲学|解剖|病理|生理学|药理|组胚|生化|内科|外科|护理学"
    r"|医学|数据结构|操作系统|计网|计算机网络|编译原理|计组|组成原理|数据库|模电|数电|信号与系统|材料力学|理论力学|热力学"
    r"|数值分析|复变|实变|常微分|偏微分|泛函|运筹学|电路|电磁场|量子力学|大学化学|工程制图|机械原理|自动控制|通信原理"
)
_EN_SUBJECTS = (
    r"anatomy|physiology|pathology|pharmacology|biochem(?:istry)?|o-?chem|orgo|organic\s+chem(?:istry)?|chem(?:istry)?"
    r"|physics|calc(?:ulus)?|linear\s+algebra|stats|statistics|econ(?:omics)?|econometrics|microeconomics"
    r"|macroeconomics|accounting|psych(?:ology)?|sociology|philosophy|bio(?:logy)?|genetics|neuro(?:science)?"
    r"|circuits|data\s+structures|algorithms|operating\s+systems|compilers|discrete\s+math|thermo(?:dynamics)?"
)


@dataclass(frozen=True)
class Category:
    name: str
    pattern: re.Pattern[str]


_EXAM = Category("exam", _words(
    r"考试|测验|小测|随堂测|测试|期中|期末|(?<![参思备])考(?![虑察勤究古拉])|补考|重修|缓考|四级|六级|雅思|托福"
    r"|教资|考研|考公|国考|省考|笔试|机试|上机考|模考|月考|考核|答辩|复试|初试|口试|体测|驾照|科目[一二三四]|备考"
    r"|证书考|资格证|普通话|执业医师|护考|护士资格|法考|司法考试|注会|考级|技能鉴定",
    r"exams?|tests?|quiz(?:zes)?|midterms?|finals?|viva|defen[cs]e|oral\s+exam|prelims?|quals?|boards"
    r"|gre|gmat|toefl|ielts|lsat|mcat|cet-?[46]|driving\s+test|road\s+test|license\s+test"
    r"|certification|mock\s+exam|practice\s+exam|nclex|usmle|comlex|bar\s+exam|cpa|praxis|licensing\s+exam",
))
_COURSEWORK = Category("coursework", _words(
    r"作业|习题|练习题|课后题|练习册|报告|实验(?!室)|课设|课程设计|毕设|毕业设计|毕业论文|课程论文|小论文|开题|中期检查|结项"
    r"|文献|综述|读书笔记|心得|周报|周记|课件|ppt|展示|汇报|讲稿|预习报告|大作业|小组作业|论文(?:初稿|终稿|定稿|修改)"
    r"|大创|竞赛|建模|挑战杯|社会实践|实践报告|作文|书评|读后感|观后感|网课(?:作业|测验|考试)"
    r"|讨论课|研讨课|为[^,，。;；!?]{0,10}(?:课|讲座|研讨)"
    # a class is coursework (fresh sets: 解剖课别迟到, 英语课, 选体育课, 课堂笔记 are all
    # important), and so is studying a course (复习/预习, a case analysis, a named subject).
    r"|(?<![下网])课(?![外间余])|讲座|复习|预习|案例分析|小组讨论|文献综述|错题|刷题|真题"
    # a thesis or paper of one's own and the research work behind it (改论文, 论文查重, 赶论文,
    # 跑实验, 收集数据, 问卷) are coursework; reading others' papers (看论文) stays study, printing one
    # (打论文) an errand.
    # from the kinds of students (nursing, agriculture, arts, vocational): attendance and
    # course evaluation, self-study, practicums and field work (实训 见习 临床 大棚 试验田).
    r"|签到|点名|考勤|评教|自习|实训|见习|临床|查房|跟岗|大棚|温室|试验田|田间|田里|观测"
    # majors' own coursework: nursing and medicine, music, design, teaching, law, translation
    r"|护理|操作流程|穿刺|科室|轮转|规培|病历|视唱|练耳|回课|设计图|设计稿|试讲|说课|教案|模拟法庭|法条|口译|笔译"
    r"|(?<![看读打印])论文|查重|参考文献|调研|(?:收集|分析|处理|整理)(?:实验)?数据"
    r"|数据(?:分析|处理|收集)|跑(?:实验|数据|模型)|" + _ZH_SUBJECTS,
    r"homework|hw|assignments?|problem\s+sets?|psets?|worksheets?|lab(?!\s*mates?)|labs|lab\s+reports?|write-?ups?"
    r"|reports?|essays?|term\s+papers?|research\s+papers?|thesis|dissertation|capstone|proposal|abstract"
    r"|reading\s+responses?|responses?|reflections?|discussion\s+posts?|presentations?|poster|demo"
    r"|coursework|course\s*work|project\s+(?:report|proposal|milestone)"
    r"|readings|hackathon|contest|competition|book\s+report|pre|analysis|case\s+stud(?:y|ies)"
    r"|lit(?:erature)?\s+review|critique|lectures?|seminars?|recitations?|syllabus"
    # one's own paper and the research work behind it
    r"|(?:my|our|final|course|class|group|research|conference|position|response|seminar|short)\s+papers?"
    r"|papers?\s+(?:draft|revisions?|outline|edits?)|(?:annotated\s+)?bibliography|citations|data\s+(?:analysis|collection)"
    r"|attendance|roll\s+call|course\s+evals?|course\s+evaluations?|clinicals?|practicum|placement|rotations?"
    r"|portfolio\s+review|design\s+review|crits?|jury|recital|audition|field\s*work"
    r"|care\s+plans?|check-?offs?|practicals?|lesson\s+plans?|student\s+teaching|moot\s+court|mock\s+trial"
    r"|(?:case\s+)?briefs?|observation\s+logs?|lab\s+notebooks?"
    r"|(?:history|english|literature|politics|ethics|law|philosophy|psych|econ|sociology)\s+papers?"
    r"|questionnaire|plagiarism\s+check"
    r"|camera-?ready|conference|(?<!yoga )(?<!dance )(?<!swim )(?<!spin )(?<!gym )(?<!cooking )(?<!art )"
    r"(?<!fitness )(?<!piano )(?<!guitar )class(?:es)?|" + _EN_SUBJECTS,
))
_SUBMISSION = Category("submission", _words(
    r"提交|上交|递交|交给|补交|(?<![外社公结])交(?![流友通朋换错集谈际往叉接替钥])|上传|ddl|截止|截至|报名|申请|填报|登记|确认选题",
    r"submit|submission|hand\s+in|turn\s+in|upload|due|deadlines?|register|registration|sign\s+up"
    r"|apply|application|enrol(?:l)?(?:ment)?",
))
_CAREER = Category("career", _words(
    r"面试|笔试|简历|投递|网申|实习|校招|秋招|春招|宣讲会|求职|招聘|内推|入职|职业规划|招聘会|双选会|群面|推荐信|投稿|投(?=[A-Za-z]{2})"
    # a job's shift is an obligation with consequences (fresh sets: 奶茶店兼职, 便利店夜班,
    # 实验室值班, 家教, "shift at the cafe" are all important).
    r"|兼职|打工|家教|值班|夜班|早班|晚班|上班|排班|老板"
    # an interview's rounds (二面, 终面, HR面), a job's handover, interview practice (leetcode)
    r"|(?<![见会])(?:[一二三四终]|hr|HR)面|交接|力扣|leetcode",
    r"interviews?|resume|résumé|cv|cover\s+letter|internships?|job\s+applications?|career\s+fair|job\s+fair"
    r"|recruiters?|onboarding|offers?|hr|linkedin|networking\s+event|info\s+session"
    r"|shifts?|job|manager|boss|payroll|timesheets?|tutoring|(?:recommendation|reference)\s+letters?",
))
_ADMIN = Category("admin", _words(
    r"盖章|签字|签名|证明(?!题)|成绩单|报销|户口|社保|医保|护照|签证|通行证|身份证|学生证|居住证|档案|合同|协议|保险"
    r"|请假|假条|选课|抢课|退课|补选|注册|学籍|报到|休学|复学|转专业|奖学金|助学金|助学|贷款|入党|党员|党课|团员"
    r"|学位|毕业(?:手续|材料|审核|登记)|离校|返校|成绩(?!单)|手续|证件|毕业证|学位证|准考证|驾驶证|证书|公证|认证|落户|挂失|补办|大使馆|领事馆|面签|出入境|派出所|教务处[^,，。]{0,4}(?:盖|签|办|交)"
    r"|表格|申请表|报名表|登记表|审批|备案|年检|核酸|入学教育|新生教育|入职培训|退宿|调宿|住宿申请"
    r"|(?:电工|焊工|教师|会计|导游|护士|医师|律师|法律职业)(?:资格)?证",
    r"paperwork|forms?|passport|visas?|permit|transcripts?|registrar|course\s+(?:selection|registration)"
    r"|add/drop|enrol(?:l)?ment|financial\s+aid|fafsa|scholarships?|grants?|loans?|lease|contract|insurance"
    r"|notari[sz]\w*|diploma|certificate|stamp|documents?|dmv|embassy|consulate|immigration|i-20|ssn"
    r"|tax(?:es)?|tax\s+return|id\s+card|student\s+id|residence\s+permit|leave\s+of\s+absence|petition"
    r"|orientation|induction|housing|dorm\s+(?:checkout|check-?out|check-?in)",
))
_MONEY = Category("money", _words(
    r"学费|房租|租金|水电费|电费|水费|燃气费|煤气费|话费|网费|宽带|校园网|物业费|宿舍费|住宿费|团费|党费|班费|会费|缴"
    r"|退费|还款|还钱|还信用卡|还花呗|还借呗|还贷|账单|罚款|罚单|欠款|分期|交费|付款|押金"
    # returning library books is a chore (three of four fresh sets, and the promise's list
    # does not name it); a stated fine or consequence makes it important (CONSEQUENCE below).
    r"|还(?![没要是有在得需剩差])[^,，。\s]{0,4}(?:钱|块|元)",
    r"bills?|fees?|tuition|rent|utilities|electricity|water\s+bill|phone\s+bill|repay|pay\s+back|owe|owes"
    r"|credit\s+card|payment|pay|paying|overdue|dues|invoice|parking\s+ticket|deposit",
))
_MEDICAL = Category("medical", _words(
    r"医院|医务室|校医|医生|看病|门诊|急诊|诊所|[牙眼皮]科|口腔|体检|抽血|牙医|看牙|拔牙|补牙|洗牙|复查|复诊|挂号|打针|疫苗"
    r"|拿药|配药|开药|处方|心理咨询|咨询师|理疗|康复|化验|检查报告|输液|换药|过敏|发烧|拍片|核磁|b超|针灸|中医",
    r"doctor(?:'s)?|dentist(?:'s)?|checkup|check-up|physical|clinic|hospital|gp|physician|therapist|therapy"
    r"|counsell?or|counsell?ing|blood\s+(?:work|test)|prescriptions?|pharmacy|meds|medication|vaccin\w*"
    r"|(?:flu\s+)?shots?|x-?ray|mri|ct\s+scan|physio\w*|optometrist|eye\s+exam|follow-?up|urgent\s+care|allerg\w*"
    r"|surgery|dermatologist|orthodontist|health\s+center",
))
_ADVISOR = Category("advisor", _words(
    r"老师|导师|教授|辅导员|导员|班主任|助教|院长|系主任|答疑|组会|例会|班会|开会|会议|周会|课题组",
    r"professor|prof|profs|advisor|adviser|supervisor|ta|tas|teacher|instructor|lecturer|dean|pi"
    r"|office\s+hours?|committee|mentor|meetings?|check-?ins?|stand-?ups?|sync|one-on-one|1:1",
))

IMPORTANT_CATEGORIES: tuple[Category, ...] = (
    _EXAM, _COURSEWORK, _SUBMISSION, _CAREER, _ADMIN, _MONEY, _MEDICAL, _ADVISOR,
)

# A form to sign, books to return: the verb and the object may be apart ("get the form signed").
OBLIGATION_PAIRS = re.compile(
    r"\bforms?\b.*\bsign|\bsign\w*\b.*\bforms?\b", re.IGNORECASE
)
# Work done *for* a class session or an exam is coursework ("read the chapters for tuesday's
# lecture", "study for bio"); reviewing one's own notes stays ordinary study (complex).
STUDY_FOR_COURSE = re.compile(
    r"\b(?:study|studying|review|reviewing|read|reading|prep|prepare|cram)\b[^,.;!?]{0,40}"
    r"\bfor\b[^,.;!?]{0,20}\b(?:class|course|lecture|seminar|tutorial|recitation|section)s?\b"
    r"|\b(?:prep|prepare|make|making|finish|do|work\s+on)\b[^,.;!?]{0,20}\bslides\b"
    r"|\b(?:study|studying|cram|cramming|revise|revising)\s+for\b",
    re.IGNORECASE,
)
# "ddl周日 概率论作业": the connector leaves the title, but a stated deadline still marks an obligation.
DEADLINE_WORD = _words(r"ddl|截止|截至", r"ddl|due|deadline")
URGENCY_WORDS = _words(
    r"尽快|尽早|赶紧|赶快|马上|立刻|立即|立马|即刻|现在就|紧急|加急|很急|超急|急需|火速|十万火急",
    r"urgent(?:ly)?|asap|as\s+soon\s+as\s+possible|right\s+away|immediately|right\s+now|(?-i:rn)|(?<!from\s)now(?=[\s!.]*$)",
)
# A meeting is coursework when it is a class's or an advisor's; a club's meeting or a party is a
# pastime ("3点去社团活动室开会", "club meeting at 3").
MEETING = _words(r"开会|会议|例会|比赛|竞赛|演出|排练|训练|活动|报名",
                 r"meetings?|sync|check-?ins?|stand-?ups?|hackathon|contest|competition|tournament"
                 r"|sign\s+up|register|registration")
PASTIME = _words(
    r"社团|协会|俱乐部|读书会|聚餐|聚会|派对|联谊|团建|生日|约会|电影|游戏|开黑|球赛|演唱会|旅游|旅行|k歌|唱歌|剧本杀"
    # volunteering and a student union's departments are pastimes too
    r"|志愿|义工|学生会|烧烤|(?<=[\u4e00-\u9fff])社(?![会区交保科])",
    r"club|society|party|hangout|movie\s+night|game\s+night|birthday|date|concert|trip|karaoke|dinner|brunch"
    r"|volunteer\w*|tournament|debate|bbq|barbecue",
)

# a study verb on course material is coursework ("review the lecture notes", "reorganize my
# notes for anatomy", "review conf paper"); reading a book or learning a skill is not.
STUDY_COURSE_MATERIAL = re.compile(
    r"\b(?:review|reviewing|study|studying|revise|revising|go\s+over|reorganize|read|reading)\b[^,.;!?]{0,30}"
    r"\b(?:notes|lecture|slides|textbook|syllabus)\b|\breview\w*\b[^,.;!?]{0,20}\bpapers?\b",
    re.IGNORECASE,
)

# Not important: chores are simple (quadrant 3), learning and personal projects complex (4).
SIMPLE = _words(
    r"整理|收拾|打扫|扫除|拖地|买|购|取|拿|寄|快递|外卖|洗|晾|叠|倒垃圾|扔|充值|充电|打个?电话|视频(?!剪辑)|回复|回消息|发消息"
    r"|发邮件|还书|打印|复印|扫描|理发|剪头发|预约|预订|订(?!正)|填|修(?!改)|换|退|搬|带|借|接人|送|办卡|开卡|浇花|喂|铺床|换床单|跑腿|领|捐|银行|配眼镜|收衣服|衣服收|校园卡|还回|还给|卫生"
    r"|晒|充(?![实分满])|饭卡|公交卡|地铁卡|闲鱼|转卖|卖掉|超市|市场|淘|闹钟|收起|收好|祝福|问候|拜年"
    r"|剪指甲|打水|浇水|遛狗|打气|配钥匙|补货|囤"
    r"|还(?:图书馆|图书)?的?书|把[^,，。\s]{0,6}书还|书还",
    r"buy|buying|pick\s+up|grab|drop\s+off|order|laundry|clean|tidy|vacuum|dishes|trash|garbage|call|text"
    r"|email|reply|message|print|scan|copy|return|book|reserve|renew|fill\s+(?:in|out)|fix|repair|charge"
    r"|pack|move|cancel|refund|water|wash|haircut|groceries|grocery|shopping|errands?|mail|ship|post"
    r"|feed|iron|sweep|mop|send|rsvp|top\s+up|change\s+(?:the\s+)?(?:bed)?sheets|bedsheets|sell|list|alarm"
    r"|restock|stock\s+up|walk\s+the\s+dog|take\s+(?:the\s+|my\s+)?\w+\s+to\s+the\s+(?:shop|store|repair\s+shop)",
)
COMPLEX = _words(
    r"学习|(?<![同大开放上留小中])学(?![校院期生长姐妹弟号分费])|复习|预习|项目|论文|研究|读(?!书会)|看书|看完|(?<![排训])练|刷题"
    r"|写|背|自学|毕设|课程设计|准备|《|博客|作品集|网站|小程序|剪辑|网课|教程|编程|代码|开发|设计|画画|作曲|翻译|规划|总结",
    r"learn|learning|study|studying|review|project|read|reading|practi[cs]e|research|write|writing|paper|papers"
    r"|thesis|code|coding|build|prepare|tutorial|chapters?|portfolio|blog|website|app|side\s+project|course"
    r"|mooc|novel|book|articles?|draft|design|draw|paint|compose|translate|skill|language",
)

# What takes real time or effort whatever verb comes with it (QUICK-ADD.md quadrant 4: "a hobby
# project, a long game, learning an instrument for fun"), written as the kinds of such pastimes
# rather than phrases: a game to finish, a build or craft, drawing, an instrument, editing one's
# photos or videos, learning a sport, planning a trip. It wins over a chore's verb (修照片, 拼乐高).
TAKES_TIME = _words(
    r"把[^,，。\s]{1,8}打完|通关|打通|二周目|全成就|白金|主线|支线|剧情|肝完|(?:游戏|剧|番|动漫)[^,，。\s]{0,3}(?:打|追|看|补)完|(?:打|追|补)完[^,，。\s]{0,4}(?:游戏|剧|番)"
    r"|乐高|积木|拼图|模型|手办|高达|上色|编织|织(?:围巾|毛衣|帽子)|十字绣|速写|素描|油画|水彩|国画|书法|画满|画完"
    r"|(?:吉他|尤克里里|钢琴|小提琴|大提琴|架子鼓|口琴|古筝|琵琶|二胡)(?![社协队团弦])|卡农|弹琴|练琴|乐器|练(?:歌|舞)"
    r"|修(?:图|照片|片)|照片[^,，。\s]{0,4}修|调色|vlog|剪(?:视频|片子|vlog)|拍(?:视频|vlog)"
    r"|滑板|冲浪|游泳|攀岩|滑雪|(?:学|练)(?:车|舞|画)|攻略",
    r"lego|jigsaw|puzzle|model\s+kit|gunpla|sketchbook|sketch|knit\w*|crochet|embroider\w*|paint\w*|drawing"
    r"|guitar|ukulele|piano|violin|cello|drums|instrument|playthrough|campaign|beat\s+(?:the\s+)?\w+|edit\w*\s+(?:photos|video|vlog)"
    r"|vlog|skateboard\w*|surf\w*|climbing|itinerary",
)


# a stated consequence makes an everyday task an obligation ("还充电宝 不然扣钱", "return
# library books or pay a fine", "退掉网课 不然不退钱"): the promise's "obligations with consequences".
CONSEQUENCE = _words(
    r"不然|否则|要不然|以免|免得|超期|逾期|过期要|扣钱|扣分|扣费|不退钱|罚款|罚金|滞纳金|违约金|挂科",
    r"or\s+(?:else|pay|get\s+(?:fined|charged)|i(?:'ll|\s+will)\s+(?:be|get|lose|pay))|otherwise|late\s+fees?"
    r"|(?:a|late|library|parking|the)\s+fine|fined|penalty|overdue",
)
# Courtesy to a teacher (a greeting, thanks) is not a meeting with them.
COURTESY = _words(r"祝福|问候|拜年|贺卡|节日快乐|生日快乐|新年快乐",
                  r"greetings?|wishes|happy\s+(?:new\s+year|birthday|holidays)")

_BOOK_NAME = re.compile(r"《[^》]*》")


def importance_category(title: str) -> str | None:
    """The first important category the title names, or None.

    A meeting of a club or a party is a pastime: when the only important words are meeting words
    and the title names a pastime, the task is not important.
    """
    # A book's name says nothing about the task's kind: 《西方哲学史》 is a book to read, not a course.
    title = _BOOK_NAME.sub("《》", title)
    found = [(category.name, match.group(0))
             for category in IMPORTANT_CATEGORIES for match in category.pattern.finditer(title)]
    if CONSEQUENCE.search(title):
        return "money" if not found else found[0][0]
    if found and COURTESY.search(title) and all(name == "advisor" for name, _ in found):
        return None  # 给班主任发新年祝福: a greeting to a teacher, an errand
    if not found:
        if OBLIGATION_PAIRS.search(title):
            return "admin"
        if STUDY_FOR_COURSE.search(title) or STUDY_COURSE_MATERIAL.search(title):
            return "coursework"
        return None
    if PASTIME.search(title) and all(MEETING.fullmatch(word) for _, word in found):
        return None
    return found[0][0]
