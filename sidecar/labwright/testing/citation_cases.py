r"""The labelled references: each a .bib entry as a person or a model writes it,
with the verdict it must get against the fake indexes (scholar_corpus.py).

Kinds: ``real`` (correct, or differing only in what matching must tolerate:
escapes, case, a subtitle left out, initials, name order, CJK name forms),
``typo`` (real, with a mistake a correction must fix), ``zh`` (Chinese), ``preprint``
(an arXiv or bioRxiv preprint published since), ``invented`` (plausible,
not in either index; several lean on a real work's title, authors or DOI),
``nothing`` (nothing to look up).
"""

from __future__ import annotations

from dataclasses import dataclass

from labwright.verify.verdict import VerdictKind


@dataclass(frozen=True)
class Case:
    kind: str
    expected: VerdictKind
    bibtex: str
    #: For "corrected": a field the proposal must change.
    fixes: str = ""


def _c(kind: str, expected: VerdictKind, bibtex: str, fixes: str = "") -> Case:
    return Case(kind, expected, bibtex.strip(), fixes)


CASES: tuple[Case, ...] = (
    # -- real, as written by people -------------------------------------------------
    _c(
        "real",
        "verified",
        r"""@inproceedings{he2016, author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, title={Deep Residual Learning for Image Recognition}, booktitle={CVPR}, year={2016}, pages={770--778}, doi={10.1109/CVPR.2016.90}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{ligo, author={Abbott, B. P. and others}, title={Observation of Gravitational Waves from a Binary Black Hole Merger}, journal={Phys. Rev. Lett.}, volume={116}, pages={061102}, year={2016}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{lecun, author={Yann LeCun and Yoshua Bengio and Geoffrey Hinton}, title={Deep learning}, journal={Nature}, year={2015}, volume={521}, pages={436--444}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{einstein, author={Einstein, A.}, title={Zur Elektrodynamik bewegter K{\"o}rper}, journal={Annalen der Physik}, year={1905}, volume={322}, pages={891--921}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{schroedinger, author={Schr\"{o}dinger, Erwin}, title={Quantisierung als Eigenwertproblem}, journal={Ann. Phys.}, year={1926}, doi={10.1002/andp.19263840404}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{watson, author={Watson, J. D. and Crick, F. H. C.}, title={Molecular structure of nucleic acids}, journal={Nature}, year={1953}, volume={171}, pages={737--738}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@book{taylor, author={John R. Taylor}, title={An Introduction to Error Analysis: The Study of Uncertainties in Physical Measurements}, publisher={University Science Books}, year={1997}, edition={2}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@book{griffiths, author={Griffiths, David J.}, title={Introduction to Electrodynamics}, publisher={Cambridge University Press}, year={2017}, isbn={978-1-108-42041-9}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{hunter, author={Hunter, J. D.}, title={Matplotlib: A {2D} graphics environment}, journal={Computing in Science \& Engineering}, volume={9}, number={3}, pages={90--95}, year={2007}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{rutherford, author={Rutherford, E.}, title={The scattering of $\alpha$ and $\beta$ particles by matter and the structure of the atom}, journal={Philosophical Magazine}, volume={21}, pages={669--688}, year={1911}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{hh, author={A. L. Hodgkin and A. F. Huxley}, title={A QUANTITATIVE DESCRIPTION OF MEMBRANE CURRENT AND ITS APPLICATION TO CONDUCTION AND EXCITATION IN NERVE}, journal={J. Physiol.}, year={1952}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{lb, author={Lineweaver, Hans and Burk, Dean}, title={The determination of enzyme dissociation constants}, journal={J. Am. Chem. Soc.}, year={1934}, volume={56}, pages={658--666}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{bcs, author={Bardeen, J. and Cooper, L. N. and Schrieffer, J. R.}, title={Theory of Superconductivity}, journal={Phys. Rev.}, volume={108}, pages={1175}, year={1957}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{shannon, author={Shannon, Claude E.}, title={A Mathematical Theory of Communication}, journal={Bell Syst. Tech. J.}, year={1948}, doi={https://doi.org/10.1002/j.1538-7305.1948.tb01338.x}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{sg, author={Savitzky, Abraham and Golay, Marcel J. E.}, title={Smoothing and Differentiation of Data by Simplified Least Squares Procedures}, journal={Analytical Chemistry}, year={1964}, volume={36}, number={8}, pages={1627--1639}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{levenberg, author={K. Levenberg}, title={A Method for the Solution of Certain Non-Linear Problems in Least Squares}, journal={Quart. Appl. Math.}, year={1944}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@misc{vaswani, author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki}, title={Attention Is All You Need}, year={2017}, eprint={1706.03762}, archivePrefix={arXiv}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@misc{adam, author={Diederik P. Kingma and Jimmy Ba}, title={Adam: A Method for Stochastic Optimization}, year={2014}, howpublished={arXiv:1412.6980}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@inproceedings{alexnet2012, author={Krizhevsky, Alex and Sutskever, Ilya and Hinton, Geoffrey E.}, title={ImageNet Classification with Deep Convolutional Neural Networks}, booktitle={Advances in Neural Information Processing Systems}, volume={25}, year={2012}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{alphafold, author={Jumper, John and Evans, Richard}, title={Highly accurate protein structure prediction with {AlphaFold}}, journal={Nature}, year={2021}, volume={596}, pages={583--589}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{tu, author={屠呦呦}, title={The discovery of artemisinin (qinghaosu) and gifts from Chinese medicine}, journal={Nature Medicine}, year={2011}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@book{nr, author={Press, William H. and Teukolsky, Saul A. and Vetterling, William T. and Flannery, Brian P.}, title={Numerical Recipes: The Art of Scientific Computing}, edition={3}, publisher={Cambridge University Press}, year={2007}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{mm, author={Michaelis, Leonor and Menten, Maud L.}, title={Die Kinetik der Invertinwirkung}, journal={Biochem. Z.}, volume={49}, pages={333--369}, year={1913}}""",
    ),
    # -- real, with a mistake ---------------------------------------------------------
    _c(
        "typo",
        "corrected",
        r"""@article{lecun_t, author={LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey}, title={Deep learning}, journal={Nature}, year={2015}, volume={512}, pages={436--444}}""",
        "volume",
    ),
    _c(
        "typo",
        "corrected",
        r"""@inproceedings{he_t, author={He, Kaiming and Zhang, Xiangyu}, title={Deep Residual Lerning for Image Recognition}, booktitle={CVPR}, year={2016}}""",
        "title",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{ligo_t, author={Abbott, B. P.}, title={Observation of Gravitational Waves from a Binary Black Hole Merger}, journal={PRL}, year={2016}, doi={10.1103/PhysRevLett.116.061103}}""",
        "doi",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{hunter_t, author={Hunter, J. D.}, title={Matplotlib: A 2D Graphics Environment}, journal={Comput. Sci. Eng.}, year={2008}, volume={9}, pages={90--95}}""",
        "year",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{shannon_t, author={Shanon, C. E.}, title={A Mathematical Theory of Communication}, journal={Bell System Technical Journal}, year={1948}, volume={27}, pages={379--423}}""",
        "author",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{marquardt_t, author={Marquardt, D. W.}, title={An algorithm for least-squares estimation of non-linear paramters}, journal={J. SIAM}, year={1963}, volume={11}, pages={431--441}, doi={10.1137/0111030}}""",
        "title",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{hh_t, author={Hodgkin, A. L. and Huxley, A. F.}, title={A quantitative description of membrane current and its application to conduction and excitation in nerve}, journal={J. Physiol.}, year={1952}, volume={117}, pages={550--544}}""",
        "pages",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{numpy_t, author={Harris, Charles R. and Millman, K. Jarrod}, title={Array programming with {NumPy}}, journal={Nature}, year={2020}, volume={585}, pages={357--362}, doi={10.1038/s41586-020-2649-3}}""",
        "doi",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{watson_t, author={Watson, J. D. and Crick, F. H. C.}, title={Molecular structure of nucleic acid: a structure for deoxyribose nucleic acid}, journal={Nature}, year={1953}}""",
        "title",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{alphafold_t, author={Jumper, J.}, title={Highly accurate protein structure prediction with AlphaFold}, journal={Nature}, year={2020}, volume={596}}""",
        "year",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{bcs_t, author={Bardeen, John and Cooper, Leon N. and Schrieffer, J. Robert}, title={Theory of Superconductivity}, journal={Physical Review}, year={1957}, volume={106}, pages={1175--1204}}""",
        "volume",
    ),
    # -- Chinese -------------------------------------------------------------------------
    _c(
        "zh",
        "verified",
        r"""@article{wang2018, author={王建国 and 李明}, title={单摆法测量重力加速度的系统误差分析}, journal={物理学报}, year={2018}, volume={67}, number={12}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{zhang2019, author={张 伟 and 陈 晓红 and 刘 洋}, title={飞秒激光诱导周期性表面结构的研究进展}, journal={中国激光}, year={2019}, volume={46}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{zhao2020, author={Zhao, Lei and Sun, Li}, title={A metal surface defect detection method based on convolutional neural networks}, journal={Journal of Image and Graphics}, year={2020}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{ouyang2016, author={欧阳明 and 黄静}, title={纳米二氧化钛光催化降解甲基橙的动力学研究}, journal={化学学报}, year={2016}, doi={10.6023/A16030142}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{zhou2017, author={周涛}, title={大学物理实验中霍尔效应测量磁场的不确定度评定}, journal={大学物理实验}, year={2017}, volume={30}, number={2}, pages={98--101}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{ma2021, author={马晓 and 高峰}, title={黄河流域近60年降水时空变化特征}, journal={地理学报}, year={2021}}""",
    ),
    _c(
        "zh",
        "corrected",
        r"""@article{wu2015, author={吴刚 and 郑芳芳}, title={锂离子电池正极材料磷酸铁锂的改姓研究进展}, journal={硅酸盐学报}, year={2015}}""",
        "title",
    ),
    _c(
        "zh",
        "corrected",
        r"""@article{wang2018_t, author={王建国}, title={单摆法测量重力加速度的系统误差分析}, journal={物理学报}, year={2018}, doi={10.7498/aps.67.20180312}}""",
        "doi",
    ),
    _c(
        "zh",
        "corrected",
        r"""@article{zhao2020_t, author={赵磊 and 孙丽}, title={基于卷积神经网络的金属表面缺陷检测方法}, journal={中国图象图形学报}, year={2020}, volume={26}}""",
        "volume",
    ),
    # -- preprints published since -------------------------------------------------------
    _c(
        "preprint",
        "corrected",
        r"""@misc{scipy_pre, author={Virtanen, Pauli and Gommers, Ralf}, title={SciPy 1.0: Fundamental Algorithms for Scientific Computing in Python}, year={2019}, eprint={1907.10121}, archivePrefix={arXiv}}""",
        "journal",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@article{numpy_pre, author={Harris, Charles R.}, title={Array programming with NumPy}, journal={arXiv preprint arXiv:2006.10256}, year={2020}}""",
        "doi",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@misc{bert_pre, author={Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina}, title={{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding}, year={2018}, url={https://arxiv.org/abs/1810.04805}}""",
        "doi",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@misc{resnet_pre, author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, title={Deep Residual Learning for Image Recognition}, year={2015}, eprint={1512.03385}, archivePrefix={arXiv}}""",
        "doi",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@misc{zebrafish_pre, author={Moreno, Lucia and Okafor, Chidi}, title={Single-cell transcriptomics of the developing zebrafish heart}, year={2021}, doi={10.1101/2021.03.04.433901}, howpublished={bioRxiv}}""",
        "journal",
    ),
    # -- invented, looking plausible ---------------------------------------------------
    _c(
        "invented",
        "not_found",
        r"""@article{fake_pend, author={Miller, Sarah J. and Chen, Wei}, title={Measurement of the gravitational acceleration with a compound pendulum and photogate timing}, journal={American Journal of Physics}, year={2015}, volume={83}, pages={432--437}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_not_all, author={Vaswani, Ashish}, title={Attention Is Not All You Need}, year={2019}, journal={Advances in Neural Information Processing Systems}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@inproceedings{fake_sr, author={He, Kaiming and Sun, Jian}, title={Deep Residual Learning for Image Super-Resolution}, booktitle={CVPR}, year={2017}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_doi, author={Kowalski, Piotr}, title={A unified theory of damping in torsion pendulums}, journal={Physical Review Letters}, year={2016}, doi={10.1103/PhysRevLett.116.061102}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_author, author={Smith, John}, title={Array programming with NumPy}, journal={Nature}, year={2020}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_erratum, author={Jumper, John}, title={Correction to: Highly accurate protein structure prediction with AlphaFold 3}, journal={Nature}, year={2024}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@book{fake_book, author={Hartmann, Klaus}, title={Experimental Methods in Undergraduate Optics}, publisher={Springer}, year={2012}, isbn={9783642123456}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_bcs2, author={Bardeen, J.}, title={Theory of Superconductivity II}, journal={Phys. Rev.}, year={1958}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_damped, author={Liu, Hong}, title={The damped harmonic oscillator revisited with nonlinear friction}, journal={Am. J. Phys.}, year={2011}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_zh1, author={刘强 and 王芳}, title={基于深度学习的图像分割方法在医学影像中的应用}, journal={中国图象图形学报}, year={2021}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_zh2, author={陈立 and 杨帆}, title={单摆法测量重力加速度的随机误差分析}, journal={物理学报}, year={2018}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_arxiv, author={Nguyen, Thanh and Patel, Riya}, title={Self-calibrating optical tweezers for undergraduate laboratories}, year={2022}, eprint={2203.99999}, archivePrefix={arXiv}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_einstein, author={Einstein, A.}, title={Zur Thermodynamik bewegter Systeme}, journal={Annalen der Physik}, year={1907}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_lineweaver, author={Burk, Dean}, title={The determination of enzyme inhibition constants by double reciprocal plots}, journal={J. Am. Chem. Soc.}, year={1936}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_eliashberg, author={Cooper, L. N.}, title={Theory of superconductivity in strongly coupled systems}, journal={Phys. Rev.}, year={1959}}""",
    ),
    # -- nothing to look up -----------------------------------------------------------
    _c(
        "nothing",
        "unverifiable",
        r"""@misc{lab_manual, author={Physics Department}, howpublished={\url{https://example.edu/lab/manual.pdf}}, year={2024}}""",
    ),
    _c(
        "nothing",
        "unverifiable",
        r"""@misc{datasheet, howpublished={Thorlabs PM100D datasheet}, note={accessed 2024-03-01}}""",
    ),
)
