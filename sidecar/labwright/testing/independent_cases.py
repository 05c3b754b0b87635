r"""The second labelled set: references written by someone who had not read the
matcher, against index records written as the real services return them
(independent_records.py), quirks included.

Same kinds and shape as citation_cases.py. The expected verdicts follow the
issue: a correct entry whose index record is garbled (mojibake, MathML, markup,
capitals) is ``verified`` and gets no proposal to copy the garbling; a real work
with a mistake is ``corrected`` with the field to fix; a preprint whose version
of record is indexed is ``corrected`` towards it; an invented entry is
``not_found`` even when its DOI, arXiv id or ISBN resolves (to a different work);
an entry of a kind the scholarly indexes do not hold (a web page, a standard) is
``unverifiable`` rather than "likely invented".
"""

from __future__ import annotations

from labwright.testing.citation_cases import Case, _c

CASES: tuple[Case, ...] = (
    # -- real, as people write them ---------------------------------------------------
    _c(
        "real",
        "verified",
        r"""@article{hohenberg1964, author={Hohenberg, P. and Kohn, W.}, title={Inhomogeneous Electron Gas}, journal={Phys. Rev.}, volume={136}, number={3B}, pages={B864--B871}, year={1964}, doi={10.1103/physrev.136.b864}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{kohnsham, author={Walter Kohn and Lu Jeu Sham}, title={Self-consistent equations including exchange and correlation effects}, journal={Physical Review}, volume={140}, pages={A1133}, year={1965}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{kresse1996, author={Kresse, G. and Furthm{\"u}ller, J.}, title={Efficient iterative schemes for \textit{ab initio} total-energy calculations using a plane-wave basis set}, journal={Phys. Rev. B}, volume={54}, pages={11169--11186}, year={1996}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{schroedinger1935, author={Schr{\"o}dinger, Erwin}, title={Die gegenw{\"a}rtige {S}ituation in der {Q}uantenmechanik}, journal={Naturwissenschaften}, volume={23}, pages={807--812}, year={1935}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{bednorz1986, author={Bednorz, J. G. and M{\"u}ller, K. A.}, title={Possible high {$T_c$} superconductivity in the {Ba--La--Cu--O} system}, journal={Z. Phys. B}, volume={64}, pages={189--193}, year={1986}, doi={10.1007/BF01303701}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{epr, author={Einstein, A. and Podolsky, B. and Rosen, N.}, title={Can Quantum Mechanical Description of Physical Reality be Considered Complete?}, journal={Phys. Rev.}, volume={47}, pages={777--780}, year={1935}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{aspect1982, author={Aspect, Alain and Dalibard, Jean and Roger, G{\'e}rard}, title={Experimental Test of {Bell's} Inequalities Using Time-Varying Analyzers}, journal={Phys. Rev. Lett.}, volume={49}, number={25}, pages={1804--1807}, year={1982}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{cronin1964, author={Christenson, J. H. and Cronin, J. W. and Fitch, V. L. and Turlay, R.}, title={Evidence for the $2\pi$ Decay of the $K_2^0$ Meson}, journal={Phys. Rev. Lett.}, volume={13}, pages={138--140}, year={1964}, doi={10.1103/PhysRevLett.13.138}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{becke1993, author={Becke, Axel D.}, title={Density-functional thermochemistry. {III}. {The} role of exact exchange}, journal={J. Chem. Phys.}, volume={98}, pages={5648--5652}, year={1993}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{lyp, author={Lee, Chengteh and Yang, Weitao and Parr, Robert G.}, title={Development of the {Colle-Salvetti} correlation-energy formula into a functional of the electron density}, journal={Phys. Rev. B}, volume={37}, pages={785}, year={1988}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{grimme2010, author={Grimme, Stefan and Antony, Jens and Ehrlich, Stephan and Krieg, Helge}, title={A consistent and accurate \emph{ab initio} parametrization of density functional dispersion correction ({DFT-D}) for the 94 elements {H--Pu}}, journal={J. Chem. Phys.}, volume={132}, pages={154104}, year={2010}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{kolb2001, author={Kolb, Hartmuth C. and Finn, M. G. and Sharpless, K. Barry}, title={Click Chemistry: Diverse Chemical Function from a Few Good Reactions}, journal={Angew. Chem. Int. Ed.}, volume={40}, number={11}, pages={2004--2021}, year={2001}, doi={10.1002/1521-3773(20010601)40:11<2004::AID-ANIE2004>3.0.CO;2-5}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{rostovtsev_short, author={Rostovtsev, V. V. and Green, L. G. and Fokin, V. V. and Sharpless, K. B.}, title={A Stepwise {Huisgen} Cycloaddition Process}, journal={Angew. Chem. Int. Ed.}, volume={41}, pages={2596--2599}, year={2002}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{rostovtsev2002, author={Rostovtsev, Vsevolod V. and Green, Luke G. and Fokin, Valery V. and Sharpless, K. Barry}, title={A Stepwise {Huisgen} Cycloaddition Process: Copper({I})-Catalyzed Regioselective ``Ligation'' of Azides and Terminal Alkynes}, journal={Angewandte Chemie International Edition}, year={2002}, volume={41}, number={14}, pages={2596--2599}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{blast, author={Altschul, Stephen F. and Gish, Warren and Miller, Webb and Myers, Eugene W. and Lipman, David J.}, title={Basic Local Alignment Search Tool}, journal={J. Mol. Biol.}, volume={215}, number={3}, pages={403--410}, year={1990}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{smithwaterman, author={Smith, Temple F. and Waterman, Michael S.}, title={Identification of Common Molecular Subsequences}, journal={Journal of Molecular Biology}, volume={147}, pages={195--197}, year={1981}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{laemmli1970, author={Laemmli, U. K.}, title={Cleavage of structural proteins during the assembly of the head of bacteriophage {T4}}, journal={Nature}, volume={227}, pages={680--685}, year={1970}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{lowry1951, author={Lowry, O. H. and Rosebrough, N. J. and Farr, A. L. and Randall, R. J.}, title={Protein measurement with the {Folin} phenol reagent}, journal={J. Biol. Chem.}, volume={193}, pages={265--275}, year={1951}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{sanger1977, author={Sanger, F. and Nicklen, S. and Coulson, A. R.}, title={{DNA} sequencing with chain-terminating inhibitors}, journal={Proc. Natl. Acad. Sci. USA}, volume={74}, number={12}, pages={5463--5467}, year={1977}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{livak2001, author={Livak, Kenneth J. and Schmittgen, Thomas D.}, title={Analysis of Relative Gene Expression Data Using Real-Time Quantitative {PCR} and the $2^{-\Delta\Delta C_T}$ Method}, journal={Methods}, volume={25}, number={4}, pages={402--408}, year={2001}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{takahashi2006, author={Takahashi, Kazutoshi and Yamanaka, Shinya}, title={Induction of pluripotent stem cells from mouse embryonic and adult fibroblast cultures by defined factors}, journal={Cell}, volume={126}, number={4}, pages={663--676}, year={2006}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@article{datsenko2000, author={Datsenko, K. A. and Wanner, B. L.}, title={One-step inactivation of chromosomal genes in \textit{Escherichia coli} {K-12} using {PCR} products}, journal={PNAS}, volume={97}, pages={6640--6645}, year={2000}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@incollection{mullis1987, author={Mullis, Kary B. and Faloona, Fred A.}, title={Specific synthesis of {DNA} \emph{in vitro} via a polymerase-catalyzed chain reaction}, booktitle={Methods in Enzymology}, volume={155}, pages={335--350}, publisher={Academic Press}, year={1987}}""",
    ),
    _c(
        "real",
        "verified",
        r"""@misc{kingma2013, author={Kingma, Diederik P and Welling, Max}, title={Auto-Encoding Variational {Bayes}}, year={2013}, eprint={1312.6114}, archivePrefix={arXiv}, primaryClass={stat.ML}}""",
    ),
    # -- Chinese: CJK names against romanised records, and the other way round ---------
    _c(
        "zh",
        "verified",
        r"""@article{leeyang1956, author={李政道 and 杨振宁}, title={Question of Parity Conservation in Weak Interactions}, journal={Physical Review}, volume={104}, number={1}, pages={254--258}, year={1956}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{wu1957, author={吴健雄 and Ambler, E. and Hayward, R. W. and Hoppes, D. D. and Hudson, R. P.}, title={Experimental Test of Parity Conservation in Beta Decay}, journal={Phys. Rev.}, volume={105}, pages={1413--1415}, year={1957}, doi={10.1103/PhysRev.105.1413}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{chang2013, author={常翠祖 and 张金松 and 冯硝 and others}, title={Experimental Observation of the Quantum Anomalous {Hall} Effect in a Magnetic Topological Insulator}, journal={Science}, volume={340}, number={6129}, pages={167--170}, year={2013}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{yin2017, author={印娟 and 曹原 and 李宇怀 and 廖胜凯 and others}, title={Satellite-based entanglement distribution over 1200 kilometers}, journal={Science}, volume={356}, pages={1140--1144}, year={2017}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{yuan1966, author={袁隆平}, title={水稻的雄性不孕性}, journal={科学通报}, volume={17}, number={4}, pages={185--188}, year={1966}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{qian1990, author={Qian, Xuesen and Yu, Jingyuan and Dai, Ruwei}, title={一个科学新领域: 开放的复杂巨系统及其方法论}, journal={自然杂志}, volume={13}, number={1}, pages={3--10}, year={1990}}""",
    ),
    _c(
        "zh",
        "verified",
        r"""@article{zhou2020, author={周鹏 and 杨兴娄 and others}, title={A pneumonia outbreak associated with a new coronavirus of probable bat origin}, journal={Nature}, volume={579}, pages={270--273}, year={2020}}""",
    ),
    _c(
        "zh",
        "corrected",
        r"""@article{qian1989, author={钱学森 and 于景元 and 戴汝为}, title={一个科学新领域——开放的复杂巨系统及其方法论}, journal={自然杂志}, volume={13}, number={1}, pages={3--10}, year={1989}}""",
        "year",
    ),
    # -- real, with a mistake -----------------------------------------------------------
    _c(
        "typo",
        "corrected",
        r"""@article{novoselov2004_t, author={Novoselov, K. S. and Geim, A. K. and Morozov, S. V. and Jiang, D. and Zhang, Y. and Dubonos, S. V. and Grigorieva, I. V. and Firsov, A. A.}, title={Electric Field Effect in Atomically Thin Carbon Films}, journal={Science}, volume={306}, number={5696}, pages={666--669}, year={2005}}""",
        "year",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{cao2018_t, author={Cao, Yuan and Fatemi, Valla and Fang, Shiang and Watanabe, Kenji and Taniguchi, Takashi and Kaxiras, Efthimios and Jarillo-Herrero, Pablo}, title={Unconventional superconductivity in magic-angle graphene superlattices}, journal={Nature}, volume={556}, pages={43--50}, year={2018}, doi={10.1038/nature26161}}""",
        "doi",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{cao2018_sibling, author={Cao, Y. and Fatemi, V. and Fang, S. and Watanabe, K. and Taniguchi, T. and Kaxiras, E. and Jarillo-Herrero, P.}, title={Unconventional superconductivity in magic-angle graphene superlattices}, journal={Nature}, volume={556}, pages={43--50}, year={2018}, doi={10.1038/nature26154}}""",
        "doi",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{atlas2012_t, author={Aad, G. and others}, title={Observation of a new particle in the search for the {Standard Model} {Higgs} boson with the {ATLAS} detector at the {LHC}}, journal={Phys. Lett. B}, volume={716}, pages={1--29}, year={2012}, doi={10.1016/j.physletb.2012.08.021}}""",
        "doi",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{jinek2012_t, author={Jinek, Martin and Chylinski, Krzysztof and Fonfara, Ines and Hauer, Michael and Doudna, Jennifer A. and Charpentier, Emmanuelle}, title={A Programmable Dual-{RNA}--Guided {DNA} Endonuclease in Adaptive Bacterial Immunity}, journal={Science}, volume={337}, number={6096}, pages={816--812}, year={2012}}""",
        "pages",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{blast_t, author={Altshul, S. F. and Gish, W. and Miller, W. and Myers, E. W. and Lipman, D. J.}, title={Basic local alignment search tool}, journal={J. Mol. Biol.}, volume={215}, pages={403--410}, year={1990}}""",
        "author",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{laemmli_t, author={Laemmli, U. K.}, title={Cleavage of Structural Proteins during the Assembly of the Head of Bacteriophage {T4}}, journal={Science}, volume={227}, pages={680--685}, year={1970}}""",
        "journal",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{hohenberg_t, author={Hohenberg, P. and Kohn, W.}, title={Inhomogenous Electron Gas}, journal={Physical Review}, volume={136}, pages={B864}, year={1964}}""",
        "title",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{bradford_t, author={Bradford, M. M.}, title={A rapid and sensitive method for the quantitation of microgram quantities of protein utilizing the principle of protein-dye binding}, journal={Anal. Biochem.}, volume={72}, pages={248--254}, year={1967}, doi={10.1016/0003-2697(76)90527-3}}""",
        "year",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{takahashi_t, author={Takahashi, K. and Yamanaka, S.}, title={Induction of Pluripotent Stem Cells from Mouse Embryonic and Adult Fibroblast Cultures by Defined Factors}, journal={Cell}, volume={162}, number={4}, pages={663--676}, year={2006}}""",
        "volume",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{sanger_t, author={Sanger, F. and Nicklen, S. and Coulson, A. R.}, title={DNA sequencing with chain-terminating inhibitors}, journal={PNAS}, volume={74}, pages={5463--5467}, year={1977}, doi={10.1073/pnas.74.12.5464}}""",
        "doi",
    ),
    _c(
        "typo",
        "corrected",
        r"""@article{kresse_t, author={Kresse, Georg and Furthmüller, Jürgen}, title={Efficent iterative schemes for ab initio total-energy calculations using a plane-wave basis set}, journal={Physical Review B}, volume={54}, number={16}, pages={11169--11186}, year={1996}}""",
        "title",
    ),
    # -- preprints published since --------------------------------------------------
    _c(
        "preprint",
        "corrected",
        r"""@misc{atlas2012_pre, author={{ATLAS Collaboration}}, title={Observation of a new particle in the search for the Standard Model Higgs boson with the ATLAS detector at the LHC}, year={2012}, eprint={1207.7214}, archivePrefix={arXiv}, primaryClass={hep-ex}}""",
        "journal",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@article{maldacena1997, author={Maldacena, Juan M.}, title={The Large {$N$} Limit of Superconformal Field Theories and Supergravity}, journal={arXiv e-prints}, year={1997}, eprint={hep-th/9711200}}""",
        "journal",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@misc{zhou2020_pre, author={Zhou, Peng and Yang, Xing-Lou and Wang, Xian-Guang and Shi, Zheng-Li}, title={Discovery of a novel coronavirus associated with the recent pneumonia outbreak in humans and its potential bat origin}, howpublished={bioRxiv}, year={2020}, doi={10.1101/2020.01.22.914952}}""",
        "doi",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@misc{novoselov2005_pre, author={Novoselov, K. S. and Geim, A. K. and Morozov, S. V. and others}, title={Two-dimensional gas of massless {Dirac} fermions in graphene}, year={2005}, eprint={cond-mat/0509330}, archivePrefix={arXiv}}""",
        "journal",
    ),
    _c(
        "preprint",
        "corrected",
        r"""@article{cao2018_pre, author={Cao, Yuan and Fatemi, Valla and Fang, Shiang and others}, title={Unconventional superconductivity in magic-angle graphene superlattices}, journal={arXiv preprint arXiv:1803.02342}, year={2018}}""",
        "doi",
    ),
    # -- invented, looking plausible (several with identifiers that resolve elsewhere) --
    _c(
        "invented",
        "not_found",
        r"""@article{fake_thermal_hall, author={Cao, Yuan and Jarillo-Herrero, Pablo}, title={Anomalous thermal {Hall} effect in twisted bilayer graphene near the magic angle}, journal={Nature}, volume={565}, pages={80--84}, year={2019}, doi={10.1038/nature26154}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_qmc_gga, author={Kowalczyk, Tomasz and Marsh, Rebecca J.}, title={Quantum {Monte Carlo} benchmarks of gradient-corrected exchange functionals for transition-metal oxides}, journal={Phys. Rev. Lett.}, volume={77}, pages={3865--3868}, year={1996}, doi={10.1103/PhysRevLett.77.3865}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_spaac, author={Sharpless, K. Barry and Finn, M. G.}, title={Strain-promoted azide--alkyne cycloaddition in aqueous micelles}, journal={Angew. Chem. Int. Ed.}, volume={40}, pages={2004--2021}, year={2001}, doi={10.1002/1521-3773(20010601)40:11<2004::AID-ANIE2004>3.0.CO;2-5}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_carbonyl, author={Grimme, Stefan and Ehrlich, Stephan}, title={A dispersion-corrected density functional for transition-metal carbonyl clusters}, journal={J. Chem. Phys.}, volume={132}, pages={154105}, year={2010}, doi={10.1063/1.3382345}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_tbx5a, author={Li, Wen and Chen, Jun and Zhou, Hui}, title={{CRISPR}/{Cas9}-mediated knockout of \textit{tbx5a} reveals a role in zebrafish pectoral fin regeneration}, journal={Development}, volume={145}, pages={dev162123}, year={2018}, doi={10.1242/dev.162123}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_bradford_dna, author={Bradford, Marion M.}, title={A rapid fluorometric method for the quantitation of nanogram quantities of {DNA} utilizing the principle of dye intercalation}, journal={Anal. Biochem.}, volume={86}, pages={142--146}, year={1978}, doi={10.1016/0003-2697(78)90527-3}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_livak_dpcr, author={Livak, Kenneth J. and Schmittgen, Thomas D.}, title={Absolute quantification of gene expression by digital {PCR} and the $\Delta C_T$ method}, journal={Methods}, volume={29}, pages={1--8}, year={2003}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_zh_thz, author={李明 and 张华}, title={基于石墨烯的太赫兹调制器研究进展}, journal={物理学报}, volume={68}, year={2019}, doi={10.7498/aps.68.20190001}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_zh_perovskite, author={王磊 and 刘洋}, title={钙钛矿太阳能电池的界面钝化机理研究}, journal={化学学报}, volume={78}, pages={1001--1010}, year={2020}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@misc{fake_water_nnp, author={Morales, Diego and Hartley, Fiona}, title={Neural network potentials for liquid water at hybrid-functional accuracy}, year={2018}, eprint={1810.04805}, archivePrefix={arXiv}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@book{fake_pchem_book, author={Hartley, Fiona}, title={Experimental Physical Chemistry: A Laboratory Handbook}, publisher={Cambridge University Press}, year={2017}, isbn={978-1-108-42041-9}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_ips_copy, author={Zhang, Wei and Liu, Yang}, title={Induction of pluripotent stem cells from mouse embryonic and adult fibroblast cultures by defined factors}, journal={Cell}, volume={132}, pages={567--582}, year={2008}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_zh_qkd, author={潘建伟 and 陆朝阳}, title={Satellite-based quantum key distribution over 2000 kilometers with a twin-field protocol}, journal={Science}, volume={364}, year={2019}}""",
    ),
    _c(
        "invented",
        "not_found",
        r"""@article{fake_epr2, author={Einstein, A. and Podolsky, B.}, title={Can the Quantum-Mechanical Description of Measurement Be Considered Consistent?}, journal={Phys. Rev.}, volume={49}, pages={120--125}, year={1936}}""",
    ),
    # -- kinds the scholarly indexes do not hold -----------------------------------------
    _c(
        "nothing",
        "unverifiable",
        r"""@misc{codata2018, author={{NIST}}, title={{CODATA} Internationally Recommended 2018 Values of the Fundamental Physical Constants}, howpublished={\url{https://physics.nist.gov/cuu/Constants/}}, note={Accessed 2024-05-01}}""",
    ),
    _c(
        "nothing",
        "unverifiable",
        r"""@standard{gbt8170, title={数值修约规则与极限数值的表示和判定}, number={GB/T 8170-2008}, organization={中华人民共和国国家质量监督检验检疫总局}, publisher={中国标准出版社}, year={2008}}""",
    ),
)
