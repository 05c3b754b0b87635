"""The router's labelled set: (request, the target it means) on tests/edit/docs.py.

Targets are anchors (n0..n8) or abstract/keywords/title/bibliography/whole.
Requests that honestly name several parts, or none, are labelled with what
a careful reader would pick; the router may defer those to the routing call,
but whatever it decides without a model must equal the label.
"""

from __future__ import annotations

EN_SET: list[tuple[str, str]] = [
    ("The abstract is too long; cut it to three sentences.", "abstract"),
    ("Change the keywords to pendulum, g, small-angle approximation.", "keywords"),
    ("The bibliography format is wrong; use numbered references.", "bibliography"),
    ("Fix the units in Table 2.", "n5"),
    ("Table 1 should show the periods in seconds, not milliseconds.", "n4"),
    ("Make the caption of Figure 1 more descriptive.", "n4"),
    ("Rewrite 4.2 more formally.", "n5"),
    ("§4.1 is hard to follow; restructure it.", "n4"),
    ("Shorten section 6.", "n7"),
    ("Section 5 should mention the stopwatch reaction time.", "n6"),
    ("Make the discussion more specific.", "n7"),
    ("Rewrite the error analysis to explain the uncertainty of L.", "n6"),
    ("The conclusion repeats the results; tighten it.", "n8"),
    ('In "Apparatus and procedure", add that the string length was measured with a tape.', "n2"),
    ("Add the formula for the period to the principle section.", "n1"),
    ("The aim should say we compare with the local reference value.", "n0"),
    ("Make the whole report more formal.", "whole"),
    ("Use the passive voice throughout.", "whole"),
    ("Check the tone overall.", "whole"),
    ("Improve it.", "whole"),
    ("Fix the typo in the fit of g subsection.", "n5"),
    ("Period measurements: say how many oscillations were timed.", "n4"),
    ("Rename section 2 to Theory.", "n1"),
    ("Change the title to Measuring g with a simple pendulum.", "title"),
    ("Remove Figure 2.", "n5"),
    ("In Table 1, change ms to s.", "n4"),
    ("The results section should start with a summary sentence.", "n3"),
    ("Cite the reference value of g in the discussion.", "n7"),
    ("Add a sentence about air resistance to sections 5 and 6.", "whole"),
    ("Move the derivation from the principle to an appendix.", "n1"),
    ("Expand the discussion of Table 2.", "n7"),
    ("Make the abstract and the conclusion consistent.", "whole"),
    ("Is the value of g in the results right?", "n3"),
    ("Polish the English of the whole document.", "whole"),
    ("Sort the bibliography alphabetically.", "bibliography"),
    ("Replace 9.79 with 9.80 in the conclusion.", "n8"),
    ("Rewrite 4.1.", "n4"),
    ("Chapter 3 needs the pendulum length.", "n2"),
    ("Make the report title shorter.", "title"),
    ("Add two more keywords.", "keywords"),
]

ZH_SET: list[tuple[str, str]] = [
    ("摘要太长了，压缩到三句话。", "abstract"),
    ("关键词改为：单摆，重力加速度，周期。", "keywords"),
    ("参考文献格式不对，请改为编号格式。", "bibliography"),
    ("把表2的单位改正确。", "n5"),
    ("表1中的周期应以秒为单位。", "n4"),
    ("图1的图注写得更具体一些。", "n4"),
    ("把第4节写得更正式。", "n3"),
    ("第二节需要补充周期公式。", "n1"),
    ("4.1节写得太乱，请重新组织。", "n4"),
    ("把讨论部分写得更具体。", "n7"),
    ("误差分析里要说明摆长的不确定度。", "n6"),
    ("结论太长了。", "n8"),
    ("把结果部分的数值再检查一下。", "n3"),
    ("全文改用更正式的语气。", "whole"),
    ("整体语言更学术一些。", "whole"),
    ("把标题改为“单摆测重力加速度”。", "title"),
    ("删除图2。", "n5"),
    ("“实验装置与步骤”一节要补充卷尺的精度。", "n2"),
    ("把实验原理写得更简洁。", "n1"),
    ("实验目的要提到与当地参考值比较。", "n0"),
    ("周期测量这一小节要说明计时了多少次全振动。", "n4"),
    ("把第4.2节的拟合写得更清楚。", "n5"),
    ("讨论和结论不一致，请修改。", "whole"),
    ("改进一下。", "whole"),
    ("在讨论中引用参考文献。", "n7"),
    ("参考文献按字母排序。", "bibliography"),
    ("表2的标题要写清楚。", "n5"),
]

#: Requests whose parts need different handlers (a new citation and where it
#: goes): never decided by code alone. Labelled with the part they touch.
CITE_SET: list[tuple[str, str]] = [
    ("Cite the original paper by Huygens on the pendulum clock in the Theory section.", "n1"),
    ("In the principle section, add a citation for the small-angle approximation.", "n1"),
    ("Add a reference to the original paper by Kater in the discussion.", "n7"),
    ("Please cite a textbook for the formula of the period in section 2.", "n1"),
    ("The error analysis should cite the GUM for the uncertainty of L.", "n6"),
    ("Rename section 2 to Theory and cite Halliday there.", "n1"),
    ("在实验原理部分引用惠更斯关于摆钟的原始论文。", "n1"),
    ("在讨论中添加一篇参考文献说明空气阻力的影响。", "n7"),
    ("误差分析里引用测量不确定度指南。", "n6"),
    ("第2节的周期公式要注明出处。", "n1"),
    ("在结论里补充文献支持。", "n8"),
]

#: Keyword lines written by hand (docs.EN_HAND, ZH_HAND, EN_ITALIC): the
#: keywords are found there, for free.
HAND_KEYWORDS_EN: list[tuple[str, str]] = [
    ("Change the keywords to pendulum, g, damping.", "keywords"),
    ("Add 'small-angle approximation' to the keywords.", "keywords"),
    ("The key words are too generic.", "keywords"),
]
HAND_KEYWORDS_ZH: list[tuple[str, str]] = [
    ("把关键词改成单摆、周期、阻尼。", "keywords"),
    ("关键词里加上“小角度近似”。", "keywords"),
]
